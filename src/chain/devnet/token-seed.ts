import { Address, beginCell, internal } from '@ton/core';
import {
    JETTON_TON, jettonBurnBody, jettonInternalTransferBody, jettonMinterAddress, jettonMinterStateInit, jettonMintBody,
    jettonTransferBody, jettonWalletAddress, type JettonMinterConfig,
} from './contracts/jetton.ts';
import { NFT_TON, nftCollectionAddress, nftCollectionStateInit, nftDeployItemBody, nftItemAddress, nftTransferBody, type NftCollectionConfig } from './contracts/nft.ts';
import { nftCommonContent, nftOffchainSuffix, offchainContent, onchainContent } from './contracts/metadata.ts';
import { commentPayload } from './contracts/payload.ts';
import type { DevnetWallet } from './wallets.ts';

const GRAM = 1_000_000_000n;

/** The tokens the devnet seeds, derived from its genesis wallets (so their addresses are fixed by genesis). */
export interface DevnetTokens {
    dollar: { config: JettonMinterConfig; address: Address; decimals: number };
    points: { config: JettonMinterConfig; address: Address; decimals: number; uri: string };
    collection: { config: NftCollectionConfig; address: Address };
}

/** Where a devnet created without a reachable API address points its off-chain metadata (unresolvable). */
export const UNREACHABLE_METADATA_BASE = 'https://devnet.invalid/';

/**
 * The off-chain TEP-64 documents of the seeded tokens, served by the devnet's own API at
 * `GET /v2/devnet/metadata/{document}` (the base URL is fixed in the genesis: the token contracts'
 * addresses depend on it).
 */
export const METADATA_DOCUMENTS: Record<string, Record<string, string>> = {
    'points.json': { name: 'Devnet Points', symbol: 'DPTS', decimals: '9', description: 'A jetton whose metadata lives off chain, served by the devnet' },
    'collection.json': { name: 'Devnet Collection', description: 'An NFT collection seeded by the devnet' },
    '0.json': { name: 'Devnet NFT #0', description: 'Item 0 of the devnet collection' },
    '1.json': { name: 'Devnet NFT #1', description: 'Item 1 of the devnet collection' },
};

export function devnetTokens(wallets: Map<string, DevnetWallet>, metadataBase = UNREACHABLE_METADATA_BASE): DevnetTokens {
    const alice = wallets.get('alice-v3r2')!.address;
    const bobV5 = wallets.get('bob-v5r1')!.address;
    const dollarConfig: JettonMinterConfig = {
        admin: alice,
        content: onchainContent({ name: 'Devnet Dollar', symbol: 'DUSD', decimals: 6, description: 'A jetton with on-chain metadata, seeded by the devnet' }),
    };
    const pointsUri = `${metadataBase}points.json`;
    const pointsConfig: JettonMinterConfig = { admin: alice, content: offchainContent(pointsUri) };
    const collectionConfig: NftCollectionConfig = {
        owner: bobV5,
        collectionContent: offchainContent(`${metadataBase}collection.json`),
        commonContent: nftCommonContent(metadataBase),
    };
    return {
        dollar: { config: dollarConfig, address: jettonMinterAddress(dollarConfig), decimals: 6 },
        points: { config: pointsConfig, address: jettonMinterAddress(pointsConfig), decimals: 9, uri: pointsUri },
        collection: { config: collectionConfig, address: nftCollectionAddress(collectionConfig) },
    };
}

type Message = Parameters<DevnetWallet['transfer']>[2][number];
export type TokenStep = { label: string; from: string; messages: (w: Map<string, DevnetWallet>, t: DevnetTokens) => Message[] };

const DUSD = 1_000_000n;

/**
 * Token activity seeded after the wallets: two jettons (6 and 9 decimals; on-chain and off-chain
 * metadata) minted, transferred with a comment and with another forward payload, burnt, a forged
 * internal_transfer that the recipient's wallet rejects, and an NFT collection whose items change hands.
 */
export const TOKEN_STEPS: TokenStep[] = [
    {
        label: 'DUSD minted to alice (on-chain metadata)',
        from: 'alice-v3r2',
        messages: (w, t) => [internal({
            to: t.dollar.address, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: false,
            init: jettonMinterStateInit(t.dollar.config),
            body: jettonMintBody({ queryId: 1n, to: w.get('alice-v3r2')!.address, amount: 1_000_000n * DUSD, from: t.dollar.address, responseAddress: w.get('alice-v3r2')!.address }),
        })],
    },
    {
        label: 'DPTS minted to bob (off-chain metadata)',
        from: 'alice-v3r2',
        messages: (w, t) => [internal({
            to: t.points.address, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: false,
            init: jettonMinterStateInit(t.points.config),
            body: jettonMintBody({ queryId: 2n, to: w.get('bob-v4r2')!.address, amount: 500n * GRAM, from: t.points.address, responseAddress: w.get('alice-v3r2')!.address }),
        })],
    },
    {
        label: 'alice sends 1500 DUSD to bob with a comment',
        from: 'alice-v3r2',
        messages: (w, t) => [internal({
            to: jettonWalletAddress(w.get('alice-v3r2')!.address, t.dollar.address), value: JETTON_TON.transfer + 10_000_000n, bounce: true,
            body: jettonTransferBody({
                queryId: 3n, amount: 1_500n * DUSD, destination: w.get('bob-v4r2')!.address, responseDestination: w.get('alice-v3r2')!.address,
                forwardTonAmount: 10_000_000n, forwardPayload: commentPayload('for the coffee'),
            }),
        })],
    },
    {
        label: 'bob sends 20 DPTS to alice with a custom payload',
        from: 'bob-v4r2',
        messages: (w, t) => [internal({
            to: jettonWalletAddress(w.get('bob-v4r2')!.address, t.points.address), value: JETTON_TON.transfer + 10_000_000n, bounce: true,
            body: jettonTransferBody({
                queryId: 4n, amount: 20n * GRAM, destination: w.get('alice-v3r2')!.address, responseDestination: w.get('bob-v4r2')!.address,
                forwardTonAmount: 10_000_000n, forwardPayload: beginCell().storeUint(0x12345678, 32).storeUint(42, 64).endCell(),
            }),
        })],
    },
    {
        label: 'bob burns 5 DPTS',
        from: 'bob-v4r2',
        messages: (w, t) => [internal({
            to: jettonWalletAddress(w.get('bob-v4r2')!.address, t.points.address), value: JETTON_TON.burn, bounce: true,
            body: jettonBurnBody({ queryId: 5n, amount: 5n * GRAM, responseDestination: w.get('bob-v4r2')!.address }),
        })],
    },
    {
        label: 'a forged DUSD internal_transfer bounces',
        // A forged internal_transfer straight from a wallet: bob's DUSD wallet rejects it and it bounces.
        from: 'alice-v3r2',
        messages: (w, t) => [internal({
            to: jettonWalletAddress(w.get('bob-v4r2')!.address, t.dollar.address), value: JETTON_TON.transfer, bounce: true,
            body: jettonInternalTransferBody({ queryId: 6n, amount: 1_000_000n * DUSD, from: w.get('alice-v3r2')!.address }),
        })],
    },
    {
        label: 'NFT collection deployed with item 0 for alice',
        from: 'bob-v5r1',
        messages: (w, t) => [internal({
            to: t.collection.address, value: NFT_TON.itemDeployAmount + NFT_TON.deployOverhead, bounce: false,
            init: nftCollectionStateInit(t.collection.config),
            body: nftDeployItemBody({ queryId: 7n, index: 0n, owner: w.get('alice-v3r2')!.address, content: nftOffchainSuffix('0.json'), amount: NFT_TON.itemDeployAmount }),
        })],
    },
    {
        label: 'NFT item 1 minted for bob',
        from: 'bob-v5r1',
        messages: (w, t) => [internal({
            to: t.collection.address, value: NFT_TON.itemDeployAmount + NFT_TON.deployOverhead, bounce: true,
            body: nftDeployItemBody({ queryId: 8n, index: 1n, owner: w.get('bob-v5r1')!.address, content: nftOffchainSuffix('1.json'), amount: NFT_TON.itemDeployAmount }),
        })],
    },
    {
        label: 'alice transfers NFT item 0 to bob',
        from: 'alice-v3r2',
        messages: (w, t) => [internal({
            to: nftItemAddress(0n, t.collection.address), value: NFT_TON.transfer + 10_000_000n, bounce: true,
            body: nftTransferBody({ queryId: 9n, newOwner: w.get('bob-v4r2')!.address, responseDestination: w.get('alice-v3r2')!.address, forwardAmount: 10_000_000n, forwardPayload: commentPayload('an NFT for you') }),
        })],
    },
];

