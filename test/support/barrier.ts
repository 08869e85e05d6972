/**
 * Named one-shot signals shared by a test and the handlers the local runtime runs in the same process (on
 * globalThis, as the recording worker does, so they are shared whatever module instance each side loaded).
 * Lets a test hold one invocation open while another runs, so "concurrent" is a fact, not a timing hope.
 */
const KEY = Symbol.for('community-api.test.barriers');
type Holder = typeof globalThis & { [KEY]?: Map<string, { promise: Promise<void>; open: () => void }> };

function barrier(name: string) {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  let found = holder[KEY].get(name);
  if (!found) {
    let open = () => {};
    const promise = new Promise<void>((resolve) => {
      open = resolve;
    });
    found = { promise, open };
    holder[KEY].set(name, found);
  }
  return found;
}

export const signal = (name: string): void => barrier(name).open();
export const waitFor = (name: string): Promise<void> => barrier(name).promise;
