import { Address, internal } from '@ton/core';
import { libraryCell } from '../../ton/libraries.ts';
import {
    JETTON_TON, jettonMintBody, jettonMinterAddress, jettonMinterStateInit, jettonTransferBody, jettonWalletAddress, jettonWalletCode,
    type JettonMinterConfig,
} from './contracts/jetton.ts';
import { LIBRARIAN_TON, librarianAddress, librarianStateInit, publishLibraryBody } from './contracts/librarian.ts';
import { onchainContent } from './contracts/metadata.ts';
import { commentPayload } from './contracts/payload.ts';
import type { TokenStep } from './token-seed.ts';
import type { DevnetWallet } from './wallets.ts';

const DSTB = 1_000_000n;

/**
 * A public library and a jetton that uses it, as mainnet's large jettons do: the faucet's librarian
 * (masterchain) publishes the jetton wallet code, and the DSTB minter deploys its wallets with a
 * library cell pointing at it, so indexing and emulating them needs the library.
 */
export interface DevnetLibraryJetton {
    librarian: Address;
    stable: { config: JettonMinterConfig; address: Address; decimals: number; walletCode: ReturnType<typeof libraryCell> };
}

export function devnetLibraryJetton(wallets: Map<string, DevnetWallet>): DevnetLibraryJetton {
    const walletCode = libraryCell(jettonWalletCode());
    const config: JettonMinterConfig = {
        admin: wallets.get('alice-v3r2')!.address,
        content: onchainContent({ name: 'Devnet Stable', symbol: 'DSTB', decimals: 6, description: 'A jetton whose wallets run public library code, seeded by the devnet' }),
        walletCode,
    };
    return {
        librarian: librarianAddress(wallets.get('faucet')!.address),
        stable: { config, address: jettonMinterAddress(config), decimals: 6, walletCode },
    };
}

type LibraryStep = Omit<TokenStep, 'messages'> & { messages: (w: Map<string, DevnetWallet>, l: DevnetLibraryJetton) => ReturnType<TokenStep['messages']> };

export const LIBRARY_STEPS: LibraryStep[] = [
    {
        label: 'librarian publishes the jetton wallet code as a public library',
        from: 'faucet',
        messages: (w, l) => [internal({
            to: l.librarian, value: LIBRARIAN_TON.publish, bounce: false,
            init: librarianStateInit(w.get('faucet')!.address),
            body: publishLibraryBody(jettonWalletCode(), 10n),
        })],
    },
    {
        label: 'DSTB (library-coded wallets) minted to bob',
        from: 'alice-v3r2',
        messages: (w, l) => [internal({
            to: l.stable.address, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: false,
            init: jettonMinterStateInit(l.stable.config),
            body: jettonMintBody({ queryId: 11n, to: w.get('bob-v5r1')!.address, amount: 1_000n * DSTB, from: l.stable.address, responseAddress: w.get('alice-v3r2')!.address }),
        })],
    },
    {
        label: 'bob sends 25 DSTB to alice',
        from: 'bob-v5r1',
        messages: (w, l) => [internal({
            to: jettonWalletAddress(w.get('bob-v5r1')!.address, l.stable.address, l.stable.walletCode), value: JETTON_TON.transfer + 10_000_000n, bounce: true,
            body: jettonTransferBody({
                queryId: 12n, amount: 25n * DSTB, destination: w.get('alice-v3r2')!.address, responseDestination: w.get('bob-v5r1')!.address,
                forwardTonAmount: 10_000_000n, forwardPayload: commentPayload('paid from a wallet running library code'),
            }),
        })],
    },
];
