/**
 * A hook around every DynamoDB call the shared client sends, for tools that measure calls from outside the domain
 * code: the local stack's per-request meter (infra/local/dynamodb-meter.ts) and the heat benchmark. Nothing in a
 * deployed function registers an observer, so there the hook is one empty-list check per call.
 *
 * An observer wraps the call (`send` performs it and answers its output), so it can time it, read around it, or
 * pass it through. Observers nest in the order registered (the first is outermost).
 */
export interface ObservedCall {
  /** The operation's name without `Command`: `GetItem`, `Query`, `TransactWriteItems`, … */
  readonly operation: string;
  /** The input as the DocumentClient sent it (native values, not AttributeValues). */
  readonly input: Readonly<Record<string, unknown>>;
}

export type CallObserver = (
  call: ObservedCall,
  send: () => Promise<Record<string, unknown>>,
) => Promise<Record<string, unknown>>;

const observers: CallObserver[] = [];

/** Registers an observer; the answer unregisters it. */
export function observeDynamoDbCalls(observer: CallObserver): () => void {
  observers.push(observer);
  return () => {
    const at = observers.indexOf(observer);
    if (at >= 0) observers.splice(at, 1);
  };
}

/** Runs `send` inside every registered observer (the client's middleware calls this). */
export function observed(
  call: ObservedCall,
  send: () => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  if (observers.length === 0) return send();
  return observers.reduceRight<() => Promise<Record<string, unknown>>>(
    (inner, observer) => () => observer(call, inner),
    send,
  )();
}

export const hasCallObservers = (): boolean => observers.length > 0;
