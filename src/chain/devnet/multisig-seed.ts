import { Cell, internal } from '@ton/core';
import { MultisigWallet } from '@ton/ton';
import type { DevnetWallet } from './wallets.ts';

const GRAM = 1_000_000_000n;

/**
 * The devnet's multisig v1 (@ton/ton `MultisigWallet`): owned by bob's key (which his v4r2 and v5r1
 * wallets share) and alice's, both needed to sign. Its address follows from the genesis keys.
 */
export function devnetMultisig(wallets: Map<string, DevnetWallet>): MultisigWallet {
    const owners = [wallets.get('bob-v4r2')!.keys.publicKey, wallets.get('alice-v3r2')!.keys.publicKey];
    return new MultisigWallet(owners, 0, 0, 2);
}

/** Alice deploys it with its StateInit; the contract accepts any internal message. */
export function multisigDeployMessages(wallets: Map<string, DevnetWallet>) {
    const multisig = devnetMultisig(wallets);
    return [internal({ to: multisig.address, value: GRAM, bounce: false, init: multisig.init, body: Cell.EMPTY })];
}
