import { getOpenApiDocument } from '../../../shared/contracts/platform.ts';
import { publicHttpHandler } from '../../../shared/http/handler.ts';
import { openApiDocument } from '../../../shared/http/openapi/document.ts';

export const handler = publicHttpHandler(getOpenApiDocument, async () => openApiDocument());
