import { getApiReference } from '../../../shared/contracts/platform.ts';
import { publicHttpHandler } from '../../../shared/http/handler.ts';
import { apiReferencePage } from '../../../shared/http/openapi/reference-page.ts';

export const handler = publicHttpHandler(getApiReference, async () => apiReferencePage());
