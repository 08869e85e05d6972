/**
 * DynamoDB capacity this process has consumed, from the `ConsumedCapacity` of every read and write (the client's
 * middleware asks for it and adds it here; see client.ts). Benchmarks reset it before a use case and read it
 * after, so cost is measured per request, not guessed. Repositories never touch it.
 */
let readUnits = 0;
let writeUnits = 0;

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

export const writeMeter = {
  add(units: number | undefined): void {
    writeUnits += units ?? 0;
  },
  reset(): void {
    writeUnits = 0;
  },
  total(): number {
    return writeUnits;
  },
};
