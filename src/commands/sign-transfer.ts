import { Address, Cell, comment as commentBody, internal } from '@ton/core';
import type { DevnetManifest } from '../chain/devnet/manifest.ts';
import { DevnetWallet } from '../chain/devnet/wallets.ts';

export interface TransferRequest {
    /** A seeded wallet's name in the manifest, e.g. `alice-v3r2`. */
    from: string;
    /** Destination, raw or user-friendly. */
    to: string;
    amount: bigint;
    comment?: string;
    bounce: boolean;
}

/** The running service could not give what signing needs; the message says what to do. */
export class DevnetApiError extends Error {
    override readonly name = 'DevnetApiError';
}

/**
 * A transfer signed by one of the devnet's seeded wallets, ready for POST /v2/blockchain/message.
 * Keys and the wallet's seqno come from the running service's manifest (the seqno as last
 * indexed), so it signs for whatever index that service uses, SQLite or PostgreSQL.
 */
export async function signTransferThroughApi(apiUrl: string, request: TransferRequest): Promise<Cell> {
    let destination: Address;
    try {
        destination = Address.parse(request.to);
    } catch {
        throw new DevnetApiError(`'${request.to}' is not an address: give a raw (0:<64 hex>) or user-friendly address`);
    }
    const manifest = await fetchManifest(apiUrl);
    const account = manifest.accounts.find(a => a.name === request.from);
    if (!account?.secret_key) {
        throw new DevnetApiError(`no seeded wallet named '${request.from}'; wallets: ${manifest.accounts.filter(a => a.secret_key).map(a => a.name).join(', ')}`);
    }
    const wallet = DevnetWallet.fromManifest(account);
    return wallet.transfer(account.seqno ?? 0, Math.floor(Date.now() / 1000) + 120, [
        internal({ to: destination, value: request.amount, bounce: request.bounce, body: request.comment ? commentBody(request.comment) : undefined }),
    ]);
}

async function fetchManifest(apiUrl: string): Promise<DevnetManifest> {
    const url = `${apiUrl}/v2/devnet/manifest`;
    let response: Response;
    try {
        response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
        const cause = networkErrorCode(error) ?? innermostMessage(error);
        throw new DevnetApiError(`no service answers at ${apiUrl} (${cause}): start the devnet with \`npm start\` first, or point --api at a running one`);
    }
    if (response.status === 404) {
        throw new DevnetApiError(`the service at ${apiUrl} runs no devnet (it was started with --source none): sign-transfer signs for the devnet's seeded wallets; start one with \`npm start\``);
    }
    if (!response.ok) throw new DevnetApiError(`the service at ${apiUrl} answered ${response.status} for its devnet manifest: ${await response.text()}`);
    return await response.json() as DevnetManifest;
}

/** The system error code behind a failed fetch (undici wraps it, sometimes in an AggregateError of every address tried). */
function networkErrorCode(error: unknown): string | undefined {
    for (let e = error as { cause?: unknown; code?: string; errors?: unknown[] } | undefined; e; e = e.cause as typeof e) {
        if (typeof e.code === 'string' && e.code !== 'UND_ERR_CONNECT') return e.code;
        const inner = e.errors?.map(networkErrorCode).find(Boolean);
        if (inner) return inner;
    }
    return undefined;
}

function innermostMessage(error: unknown): string {
    let e = error as { cause?: unknown; message?: string };
    while (e.cause && typeof e.cause === 'object') e = e.cause as typeof e;
    return e.message ?? String(error);
}
