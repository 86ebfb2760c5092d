import { readFileSync } from 'node:fs';

/** One client of the API: its secret key, a name for logs and limits, and its requests per second. */
export interface ApiKey {
    key: string;
    name: string;
    rps: number;
}

export class ApiKeysFileError extends Error {
    override readonly name = 'ApiKeysFileError';
}

const MAX_RPS = 1_000_000_000;

/** The keys of an `--api-keys` file: a JSON list of `{"key", "name", "rps"}`, keys and names unique. */
export function parseApiKeys(text: string, source: string): ApiKey[] {
    let list: unknown;
    try {
        list = JSON.parse(text);
    } catch (error) {
        throw new ApiKeysFileError(`API keys file ${source} is not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(list)) throw new ApiKeysFileError(`API keys file ${source} must hold a JSON list of {"key", "name", "rps"} objects`);
    const keys = new Set<string>();
    const names = new Set<string>();
    return list.map((entry: unknown, index) => {
        const where = `API keys file ${source}, entry ${index}`;
        if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ApiKeysFileError(`${where}: expected an object {"key", "name", "rps"}`);
        const { key, name, rps, ...extra } = entry as Record<string, unknown>;
        const unknownFields = Object.keys(extra);
        if (unknownFields.length > 0) throw new ApiKeysFileError(`${where}: unknown field(s) ${unknownFields.join(', ')}; an entry has key, name and rps`);
        // Token characters of RFC 6750 (b64token), so the key can travel in `Authorization: Bearer`.
        if (typeof key !== 'string' || !/^[A-Za-z0-9\-._~+/]+=*$/.test(key)) throw new ApiKeysFileError(`${where}: key must be a non-empty string of letters, digits and - . _ ~ + / (optionally ending in =)`);
        if (typeof name !== 'string' || name.trim() === '') throw new ApiKeysFileError(`${where}: name must be a non-empty string`);
        if (typeof rps !== 'number' || !Number.isInteger(rps) || rps < 1 || rps > MAX_RPS) throw new ApiKeysFileError(`${where} (${name}): rps must be an integer from 1 to ${MAX_RPS}`);
        if (keys.has(key)) throw new ApiKeysFileError(`${where} (${name}): the same key appears twice`);
        if (names.has(name)) throw new ApiKeysFileError(`${where}: the name '${name}' appears twice; names identify keys in limits and logs`);
        keys.add(key);
        names.add(name);
        return { key, name, rps };
    });
}

export function readApiKeysFile(path: string): ApiKey[] {
    let text: string;
    try {
        text = readFileSync(path, 'utf8');
    } catch (error) {
        throw new ApiKeysFileError(`cannot read API keys file ${path}: ${(error as Error).message}`);
    }
    return parseApiKeys(text, path);
}

/** The keys in force; replaced whole when the file is reloaded. */
export class ApiKeyRing {
    private byKey = new Map<string, ApiKey>();

    constructor(keys: ApiKey[] = []) {
        this.replace(keys);
    }

    replace(keys: ApiKey[]): void {
        this.byKey = new Map(keys.map(k => [k.key, k]));
    }

    find(key: string): ApiKey | undefined {
        return this.byKey.get(key);
    }

    get size(): number {
        return this.byKey.size;
    }
}
