/**
 * DynamoDB read units consumed by the notification repository in this process, from ReturnConsumedCapacity. The
 * benchmark resets it before a use case and reads it after, so cost is measured per request, not guessed.
 */
let readUnits = 0;

export const readMeter = {
  add(units: number | undefined): void {
    readUnits += units ?? 0;
  },
  reset(): void {
    readUnits = 0;
  },
  total(): number {
    return readUnits;
  },
};
