import { Address, Cell, beginCell, external, storeMessage, type MessageRelaxed, type StateInit } from '@ton/core';
import { SendMode, WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { keyPairFromSeed, signerFor, type KeyPair } from './keys.ts';

export type DevnetWalletKind = 'wallet_v3r2' | 'wallet_v4r2' | 'wallet_v5r1';

type AnyWallet = WalletContractV3R2 | WalletContractV4 | WalletContractV5R1;

/** A wallet contract of one of the standard versions, able to sign its own transfers. */
export class DevnetWallet {
    readonly contract: AnyWallet;

    constructor(readonly kind: DevnetWalletKind, readonly keys: KeyPair, workchain = 0) {
        const publicKey = keys.publicKey;
        this.contract = kind === 'wallet_v3r2' ? WalletContractV3R2.create({ workchain, publicKey })
            : kind === 'wallet_v4r2' ? WalletContractV4.create({ workchain, publicKey })
                : WalletContractV5R1.create({ workchain, publicKey });
    }

    /** The wallet of a manifest entry, with the keys published there. */
    static fromManifest(account: { kind: string; secret_key?: string; workchain_id?: number }): DevnetWallet {
        if (!account.secret_key) throw new Error('this manifest account has no keys: it is not a seeded wallet');
        return new DevnetWallet(account.kind as DevnetWalletKind, keyPairFromSeed(Buffer.from(account.secret_key.slice(0, 64), 'hex')), account.workchain_id ?? 0);
    }

    /** Seqno as stored in the wallet's data: v3/v4 start with it; v5r1 has is_signature_allowed first. */
    static seqnoFromData(kind: DevnetWalletKind, data: Cell): number {
        const slice = data.beginParse();
        if (kind === 'wallet_v5r1') slice.loadBit();
        return slice.loadUint(32);
    }

    get address(): Address {
        return this.contract.address;
    }

    get init(): StateInit {
        return this.contract.init;
    }

    /** The wallet id signed into every transfer, as stored in the wallet's data (v5r1 packs the network id into it). */
    get walletId(): number {
        const data = this.init.data!.beginParse();
        if (this.kind === 'wallet_v5r1') {
            data.skip(1 + 32); // is_signature_allowed, seqno
            return data.loadUint(32);
        }
        data.skip(32); // seqno
        return data.loadUint(32);
    }

    /**
     * A signed external message carrying `messages`; it includes the StateInit while the wallet is
     * not deployed (seqno 0), so the first transfer deploys it.
     */
    async transfer(seqno: number, validUntil: number, messages: MessageRelaxed[], sendMode = SendMode.PAY_GAS_SEPARATELY): Promise<Cell> {
        const sign = signerFor(this.keys);
        const signer = async (cell: Cell) => sign(cell.hash());
        const args = { seqno, signer, messages, sendMode, timeout: validUntil };
        const body = await (this.contract as WalletContractV4).createTransfer(args as never) as unknown as Cell;
        return beginCell().store(storeMessage(external({
            to: this.address,
            init: seqno === 0 ? this.init : undefined,
            body,
        }))).endCell();
    }
}
