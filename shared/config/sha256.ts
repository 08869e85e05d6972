import { createHash, createHmac } from 'node:crypto';

type Data = string | ArrayBuffer | ArrayBufferView;

const bytes = (data: Data): Buffer =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/**
 * node:crypto behind the checksum interface SigV4's signer takes (`new Sha256()` hashes, `new Sha256(key)` is an
 * HMAC): the secrets fetch signs with it, and the local AWS front checks signatures with it.
 */
export class Sha256 {
  private readonly hash;
  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Data): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {}
}
