import { getApiReferenceScript } from '../../../shared/contracts/platform.ts';
import { publicHttpHandler } from '../../../shared/http/handler.ts';
import { apiReferenceScript } from '../../../shared/http/openapi/reference-page.ts';

export const handler = publicHttpHandler(getApiReferenceScript, async () => apiReferenceScript());
