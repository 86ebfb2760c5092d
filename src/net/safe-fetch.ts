import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { nonPublicAddressReason } from './address-policy.ts';

/** How an outbound fetch of a URL that came from outside (chain data, an operator's rates URL) is bounded. */
export interface OutboundFetchPolicy {
    /** Reach private, loopback and link-local addresses too (the devnet serves its own metadata on loopback). */
    allowPrivate: boolean;
    /** Whole fetch, redirects and body included (default 5 s). */
    timeoutMs?: number;
    /** Largest body accepted (default 1 MiB). */
    maxBytes?: number;
    /** Redirects followed, each re-checked (default 3). */
    maxRedirects?: number;
    /** Every address of a host name (default: the system resolver, `dns.lookup` with all: true). */
    resolve?: (host: string) => Promise<string[]>;
    /** Why an address may not be reached, or null (default: nonPublicAddressReason). */
    refusal?: (address: string) => string | null;
    headers?: Record<string, string>;
}

export interface OutboundResponse {
    status: number;
    headers: IncomingHttpHeaders;
    body: Buffer;
    /** The URL that answered, after redirects. */
    url: string;
}

/** A fetch that was not made or not completed; the message says which URL and why. */
export class OutboundFetchError extends Error {
    override readonly name = 'OutboundFetchError';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET of an http(s) URL that connects only to addresses the policy allows: the host is resolved
 * first, every address it resolves to is checked, and the connection goes to the checked address
 * (no second resolution a rebinding DNS server could answer differently). Redirects are followed
 * by hand, each hop checked again; the time and size caps cover the whole exchange.
 */
export async function outboundFetch(url: string, policy: OutboundFetchPolicy): Promise<OutboundResponse> {
    const timeoutMs = policy.timeoutMs ?? 5_000;
    const maxRedirects = policy.maxRedirects ?? 3;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
        let current = url;
        for (let hop = 0; ; hop++) {
            const response = await fetchOnce(current, policy, controller.signal, timeoutMs);
            const location = response.headers.location;
            if (!REDIRECTS.has(response.status) || !location) return response;
            if (hop >= maxRedirects) throw new OutboundFetchError(`${url}: more than ${maxRedirects} redirects`);
            current = new URL(location, current).toString();
        }
    } finally {
        clearTimeout(timer);
    }
}

async function fetchOnce(url: string, policy: OutboundFetchPolicy, signal: AbortSignal, timeoutMs: number): Promise<OutboundResponse> {
    let target: URL;
    try {
        target = new URL(url);
    } catch {
        throw new OutboundFetchError(`${url}: not a URL`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new OutboundFetchError(`${url}: only http and https URLs are fetched`);
    const address = await checkedAddress(target, policy, signal, timeoutMs);
    const pinned: LookupFunction = (_hostname, options, callback) => {
        const family = isIP(address);
        if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
        else callback(null, address, family);
    };
    const maxBytes = policy.maxBytes ?? 1024 * 1024;
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<OutboundResponse>((resolve, reject) => {
        const fail = (error: Error) => reject(signal.aborted ? new OutboundFetchError(`${url}: no complete answer within ${timeoutMs} ms`) : error);
        // A connection of its own (no pooled socket): one opened under another policy is never reused.
        const options = { method: 'GET', lookup: pinned, signal, agent: false, headers: { 'accept-encoding': 'identity', ...policy.headers } };
        const req = request(target, options, (response: IncomingMessage) => {
            const status = response.statusCode ?? 0;
            if (REDIRECTS.has(status)) {
                response.resume();
                resolve({ status, headers: response.headers, body: Buffer.alloc(0), url });
                return;
            }
            const declared = Number(response.headers['content-length']);
            if (Number.isFinite(declared) && declared > maxBytes) {
                response.destroy();
                reject(new OutboundFetchError(`${url}: larger than ${maxBytes} bytes`));
                return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            response.on('data', (chunk: Buffer) => {
                size += chunk.length;
                if (size > maxBytes) {
                    response.destroy();
                    reject(new OutboundFetchError(`${url}: larger than ${maxBytes} bytes`));
                    return;
                }
                chunks.push(chunk);
            });
            response.on('end', () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks), url }));
            response.on('error', fail);
            response.on('close', () => {
                if (!response.complete) fail(new OutboundFetchError(`${url}: the connection closed before the whole answer`));
            });
        });
        req.on('error', error => fail(error instanceof OutboundFetchError ? error : new OutboundFetchError(`${url}: ${error.message}`)));
        req.end();
    });
}

/** The address to connect to for `target`, after checking every address its host resolves to. */
async function checkedAddress(target: URL, policy: OutboundFetchPolicy, signal: AbortSignal, timeoutMs: number): Promise<string> {
    const host = target.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
        const resolve = policy.resolve ?? (async (name: string) => (await dnsLookup(name, { all: true, verbatim: true })).map(entry => entry.address));
        try {
            addresses = await Promise.race([resolve(host), aborted(signal)]);
        } catch (error) {
            if (signal.aborted) throw new OutboundFetchError(`${target}: no complete answer within ${timeoutMs} ms`);
            throw new OutboundFetchError(`${target}: cannot resolve ${host} (${(error as Error).message})`);
        }
        if (addresses.length === 0) throw new OutboundFetchError(`${target}: ${host} resolves to no address`);
    }
    if (!policy.allowPrivate) {
        const refusal = policy.refusal ?? nonPublicAddressReason;
        for (const address of addresses) {
            const why = refusal(address);
            if (why !== null) {
                throw new OutboundFetchError(`${target}: refused, ${host === address ? address : `${host} resolves to ${address}, which`} is ${why} (--allow-private-fetch allows it)`);
            }
        }
    }
    return addresses[0];
}

function aborted(signal: AbortSignal): Promise<never> {
    return new Promise((_resolve, reject) => {
        if (signal.aborted) reject(new Error('aborted'));
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
}
