import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Keeps the SES emulator's inbox in a data folder, so an e-mail sent before a restart of `npm start` (an
 * invitation whose token exists only in that e-mail) is still there after it.
 *
 * aws-ses-v2-local keeps its mails in one module-global array and saves each through its store module's
 * `saveEmail` export, which its routes look up on every call (`(0, store.saveEmail)(…)`). So the inbox file is
 * kept by wrapping that export (and `clearStore`, behind `POST /clear-store`): each saved mail is appended to
 * `<folder>/emails.jsonl` as one JSON line, a cleared store empties the file, and the next start reads the lines
 * back into the store before the emulator serves. A line cut short by a crash mid-write is skipped.
 *
 * The store is one per process, so one inbox file per process: a second folder while one is kept is refused.
 */
type StoredEmail = Record<string, unknown>;
interface StoreModule {
  saveEmail(email: StoredEmail): void;
  clearStore(): void;
  getStoreReadonly(): { emails: StoredEmail[] };
}

const INBOX_FILE = 'emails.jsonl';
let kept: { file: string; release(): void } | undefined;

/** The emulator's store module: the very instance its routes use (same resolved file, one module cache). */
function storeModule(): StoreModule {
  return createRequire(import.meta.url)('aws-ses-v2-local/dist/store') as StoreModule;
}

/** Loads the folder's mails into the emulator's store and keeps every later change there; `release()` stops. */
export function keepInboxIn(folder: string): { release(): void } {
  const file = join(folder, INBOX_FILE);
  if (kept) {
    if (kept.file === file) return kept;
    throw new Error(
      `This process already keeps its SES inbox in ${kept.file}; one inbox folder per process.`,
    );
  }
  mkdirSync(folder, { recursive: true });
  const store = storeModule();
  const emails = store.getStoreReadonly().emails;
  emails.splice(0, emails.length, ...readInbox(file));

  const { saveEmail, clearStore } = store;
  store.saveEmail = (email) => {
    saveEmail(email);
    appendFileSync(file, `${JSON.stringify(email)}\n`);
  };
  store.clearStore = () => {
    clearStore();
    writeFileSync(file, '');
  };
  kept = {
    file,
    release() {
      store.saveEmail = saveEmail;
      store.clearStore = clearStore;
      kept = undefined;
    },
  };
  return kept;
}

function readInbox(file: string): StoredEmail[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (line.trim() === '') return [];
      try {
        return [JSON.parse(line) as StoredEmail];
      } catch {
        return [];
      }
    });
}
