/**
 * Runs `work` over consecutive slices of at most `size` items, one after another, so every SQL
 * statement stays under the drivers' parameter limits (SQLite's 32,766, PostgreSQL's 65,535).
 */
export async function inChunks<T>(items: readonly T[], size: number, work: (chunk: T[]) => Promise<unknown>): Promise<void> {
    for (let i = 0; i < items.length; i += size) await work(items.slice(i, i + size));
}

/** Like `inChunks`, collecting what each slice's read gives. */
export async function readInChunks<T, R>(items: readonly T[], size: number, read: (chunk: T[]) => Promise<readonly R[]>): Promise<R[]> {
    const all: R[] = [];
    await inChunks(items, size, async chunk => {
        all.push(...await read(chunk));
    });
    return all;
}
