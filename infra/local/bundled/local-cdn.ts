import { createServer, request as httpRequest } from 'node:http';
import { SERVED_PREFIX } from '../../constructs/media-bucket.ts';

/**
 * The media CDN's stand-in in the bundled mode (the distribution's domain name resolves here): GET and HEAD of
 * verified files under `media/` are read from the bucket on the S3 emulator; anything else is 404, as the
 * distribution's viewer-request function answers (infra/constructs/media-bucket.ts). Plain HTTP on loopback.
 */
export async function startLocalCdn(s3Endpoint: string, bucket: string) {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://cdn').pathname;
    const method = request.method ?? 'GET';
    if (!path.startsWith(`/${SERVED_PREFIX}`) || (method !== 'GET' && method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const upstream = httpRequest(new URL(`/${bucket}${path}`, s3Endpoint), { method }, (answer) => {
      const status = answer.statusCode ?? 502;
      // A private bucket answers an unknown key with 403 through CloudFront's origin access control.
      response.writeHead(status === 404 ? 403 : status, {
        ...(answer.headers['content-type'] ? { 'content-type': answer.headers['content-type'] } : {}),
        ...(answer.headers['content-length'] ? { 'content-length': answer.headers['content-length'] } : {}),
        ...(answer.headers['cache-control'] ? { 'cache-control': answer.headers['cache-control'] } : {}),
        'x-content-type-options': 'nosniff',
      });
      answer.pipe(response);
    });
    upstream.on('error', () => response.writeHead(502).end());
    upstream.end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
