import type { UndoStep } from '../../shared/domain/import/import-journal-item.ts';
import type { PlannedBatch } from '../../shared/domain/import/plan-batches.ts';

/**
 * A table in memory for checking planned batches without a database: a batch puts the items of its Put actions
 * and adds the deltas its undo would subtract (the undo records exactly what each batch added), and an undo
 * deletes and subtracts what its steps say.
 */
export class MemoryTable {
  readonly items = new Map<string, Record<string, unknown>>();

  static key = (pk: string, sk: string): string => `${pk} ${sk}`;

  get(pk: string, sk: string): Record<string, unknown> | undefined {
    return this.items.get(MemoryTable.key(pk, sk));
  }

  apply(batch: PlannedBatch): void {
    for (const action of batch.actions) {
      const item = action.Put?.Item;
      if (!item) continue;
      const id = MemoryTable.key(String(item.pk), String(item.sk));
      if (this.items.has(id)) throw new Error(`${id} is put twice`);
      this.items.set(id, structuredClone(item));
    }
    for (const step of batch.undo) {
      if (step.op === 'subtract') this.#add(step.pk, step.sk, step.deltas, 1);
    }
  }

  undo(steps: readonly UndoStep[]): void {
    for (const step of steps) {
      if (step.op === 'subtract') this.#add(step.pk, step.sk, step.deltas, -1);
      else {
        const item = this.get(step.pk, step.sk);
        for (const [name, value] of Object.entries(step.unchanged ?? {}))
          if (item?.[name] !== value) throw new Error(`${step.pk} ${step.sk} ${name} changed`);
        this.items.delete(MemoryTable.key(step.pk, step.sk));
      }
    }
  }

  #add(pk: string, sk: string, deltas: Record<string, number>, sign: 1 | -1): void {
    const id = MemoryTable.key(pk, sk);
    const item = this.items.get(id) ?? { pk, sk };
    for (const [name, amount] of Object.entries(deltas)) {
      const value = Number(item[name] ?? 0) + sign * amount;
      if (value < 0) throw new Error(`${id} ${name} would go negative`);
      item[name] = value;
    }
    this.items.set(id, item);
  }
}
