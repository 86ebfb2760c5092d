/** Runs `write` over consecutive slices of `rows`, keeping statements under the drivers' parameter limits. */
export async function insertInChunks<T>(rows: T[], size: number, write: (chunk: T[]) => Promise<unknown>): Promise<void> {
    for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}
