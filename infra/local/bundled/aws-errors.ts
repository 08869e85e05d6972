import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * Errors as each AWS service renders them, so the function's SDK raises what it would in the cloud: JSON-protocol
 * services (DynamoDB, SQS, Secrets Manager) answer `AccessDeniedException`, S3 and SES (XML) `AccessDenied`.
 */
export function sendAwsError(
  response: ServerResponse,
  service: string,
  error: { readonly status: number; readonly code: string; readonly message: string },
): void {
  const requestId = randomUUID();
  if (service === 's3') {
    const body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code>` +
      `<Message>${escapeXml(error.message)}</Message><RequestId>${requestId}</RequestId></Error>`;
    response.writeHead(error.status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
    response.end(body);
    return;
  }
  if (service === 'ses' || service === 'email') {
    const body =
      `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type>` +
      `<Code>${error.code}</Code><Message>${escapeXml(error.message)}</Message></Error>` +
      `<RequestId>${requestId}</RequestId></ErrorResponse>`;
    response.writeHead(error.status, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId });
    response.end(body);
    return;
  }
  const type = error.code === 'AccessDenied' ? 'AccessDeniedException' : error.code;
  response.writeHead(error.status === 403 ? 400 : error.status, {
    'content-type': 'application/x-amz-json-1.0',
    'x-amzn-requestid': requestId,
    'x-amzn-errortype': type,
  });
  response.end(JSON.stringify({ __type: `com.amazon.coral.service#${type}`, message: error.message }));
}

export const accessDenied = (message: string) => ({ status: 403, code: 'AccessDenied', message });

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
