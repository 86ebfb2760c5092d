import { readFile } from 'node:fs/promises';

/** One liteserver of a TON global config: where it listens and its ed25519 public key. */
export interface LiteServerAddress {
    host: string;
    port: number;
    publicKey: Buffer;
}

export class GlobalConfigError extends Error {
    override readonly name = 'GlobalConfigError';
}

/**
 * The liteservers of a TON global config (`config.global` JSON, as ton.org publishes mainnet's and
 * testnet's), read from a file or an http(s) URL.
 */
export async function loadLiteServers(location: string, options: { fetchTimeoutMs?: number } = {}): Promise<LiteServerAddress[]> {
    let text: string;
    if (/^https?:\/\//.test(location)) {
        let response: Response;
        try {
            response = await fetch(location, { signal: AbortSignal.timeout(options.fetchTimeoutMs ?? 15_000) });
        } catch (error) {
            throw new GlobalConfigError(`cannot fetch the global config ${location}: ${(error as Error).message}`);
        }
        if (!response.ok) throw new GlobalConfigError(`cannot fetch the global config ${location}: HTTP ${response.status}`);
        text = await response.text();
    } else {
        try {
            text = await readFile(location, 'utf8');
        } catch (error) {
            throw new GlobalConfigError(`cannot read the global config ${location}: ${(error as Error).message}`);
        }
    }
    return parseLiteServers(text, location);
}

/**
 * `liteservers` of a global config: `{ ip: int, port: int, id: { "@type": "pub.ed25519", key: base64 } }`.
 * `ip` is a TL int, a signed 32-bit number holding the IPv4 address big-endian.
 */
export function parseLiteServers(text: string, origin = 'the global config'): LiteServerAddress[] {
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new GlobalConfigError(`${origin} is not JSON: ${(error as Error).message}`);
    }
    const list = (json as { liteservers?: unknown }).liteservers;
    if (!Array.isArray(list) || list.length === 0) throw new GlobalConfigError(`${origin} has no liteservers`);
    return list.map((entry, i) => {
        const { ip, port, id } = (entry ?? {}) as { ip?: unknown; port?: unknown; id?: { '@type'?: unknown; key?: unknown } };
        if (typeof ip !== 'number' || !Number.isInteger(ip) || ip < -(2 ** 31) || ip >= 2 ** 32) throw new GlobalConfigError(`${origin}: liteservers[${i}].ip must be a 32-bit integer`);
        if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65535) throw new GlobalConfigError(`${origin}: liteservers[${i}].port must be a TCP port`);
        if (id?.['@type'] !== 'pub.ed25519' || typeof id.key !== 'string') throw new GlobalConfigError(`${origin}: liteservers[${i}].id must be a pub.ed25519 key`);
        const publicKey = Buffer.from(id.key, 'base64');
        if (publicKey.length !== 32) throw new GlobalConfigError(`${origin}: liteservers[${i}].id.key must be 32 bytes in base64`);
        return { host: ipv4(ip), port, publicKey };
    });
}

/** A global config naming the given liteservers (what the devnet writes for other TON tools). */
export function globalConfigJson(servers: Array<{ host: string; port: number; publicKey: Buffer }>, zeroState?: { workchain: number; rootHash: Buffer; fileHash: Buffer }): string {
    const json = JSON.stringify({
        '@type': 'config.global',
        liteservers: servers.map(s => ({ ip: ipv4ToInt(s.host), port: s.port, id: { '@type': 'pub.ed25519', key: s.publicKey.toString('base64') } })),
        validator: zeroState ? {
            '@type': 'validator.config.global',
            zero_state: { workchain: zeroState.workchain, shard: FULL_SHARD, seqno: 0, root_hash: zeroState.rootHash.toString('base64'), file_hash: zeroState.fileHash.toString('base64') },
        } : undefined,
    }, null, 2);
    // The shard is a 64-bit TL long, beyond a JSON number's exact range in JavaScript.
    return json.replace(`"${FULL_SHARD}"`, '-9223372036854775808');
}

const FULL_SHARD = 'full-shard';

function ipv4(ip: number): string {
    const value = ip >>> 0;
    return [24, 16, 8, 0].map(shift => (value >>> shift) & 255).join('.');
}

function ipv4ToInt(host: string): number {
    const parts = host.split('.').map(Number);
    if (parts.length !== 4 || parts.some(p => !Number.isInteger(p) || p < 0 || p > 255)) throw new GlobalConfigError(`a global config needs an IPv4 address, got '${host}'`);
    return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) | 0;
}
