import busboy from 'busboy';
import { AppError } from '../errors/app-error.ts';

/** A file part of a form: its name as sent, the type the client declared, and its bytes. */
export interface FormFile {
  readonly file_name: string;
  readonly content_type: string;
  readonly bytes: Uint8Array;
}

/** Form fields by name (the last value wins), plus file parts by field name. */
export type ParsedForm = Record<string, string | FormFile>;

const invalidForm = (reason: string) =>
  new AppError('rest_invalid_param', 400, `Invalid multipart body: ${reason}.`, {
    params: { body: reason },
  });

/** Caps beyond which a form is refused outright: the gateway already bounds the whole body. */
const LIMITS = { files: 1, fields: 20, fieldSize: 4096, parts: 25 } as const;

/**
 * Parses a `multipart/form-data` body (API Gateway hands it base64-encoded when binary) with busboy. A malformed
 * form, a second file or too many fields is 400 `rest_invalid_param`; the caller validates the result against
 * the operation's body schema like any JSON body.
 */
export function parseMultipart(
  body: string,
  isBase64Encoded: boolean,
  contentType: string,
): Promise<ParsedForm> {
  const raw = Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // Browsers send UTF-8 file names; busboy's default for parameters is latin1.
      parser = busboy({ headers: { 'content-type': contentType }, limits: LIMITS, defParamCharset: 'utf8' });
    } catch {
      reject(invalidForm('the multipart boundary is missing'));
      return;
    }
    const form: ParsedForm = {};
    let failure: AppError | undefined;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) failure ??= invalidForm(`field ${name.slice(0, 64)} is too long`);
      form[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A truncated form errors the part's stream too; unhandled, that would take the whole process down.
      stream.on('error', () => {
        failure ??= invalidForm('the form is malformed');
      });
      stream.on('end', () => {
        form[name] = {
          file_name: info.filename ?? '',
          content_type: info.mimeType ?? '',
          bytes: new Uint8Array(Buffer.concat(chunks)),
        };
      });
    });
    parser.on('filesLimit', () => {
      failure ??= invalidForm('only one file may be sent');
    });
    parser.on('fieldsLimit', () => {
      failure ??= invalidForm('too many fields');
    });
    parser.on('partsLimit', () => {
      failure ??= invalidForm('too many parts');
    });
    parser.on('error', () => {
      failure ??= invalidForm('the form is malformed');
      reject(failure);
    });
    parser.on('close', () => (failure ? reject(failure) : resolve(form)));
    parser.end(raw);
  });
}

const MULTIPART_MEDIA_TYPE = /^multipart\/form-data\s*;/i;

export const isMultipartRequest = (contentType: string): boolean => MULTIPART_MEDIA_TYPE.test(contentType);
