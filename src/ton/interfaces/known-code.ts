import type { Cell } from '@ton/core';
import { libraryTargetHash } from '../libraries.ts';
import { interfacesByAddress, protocolCodeByHash } from './mainnet-contracts.ts';

/**
 * Contract interfaces recognised by the hash of their code cell. Hashes are facts about
 * published contract code (wallet versions from @ton/ton and the reference wallets, compiled
 * artifacts of the multisig v2 repository, jetton/NFT builds shipped in npm packages).
 */

/** How a known wallet keeps its state in the data cell (see `wallet-data.ts`). */
export type WalletDataLayout = 'v1' | 'v3' | 'v4' | 'v5_beta' | 'v5r1' | 'highload_v2' | 'highload_v3';

export interface KnownCode {
    readonly interfaces: readonly string[];
    /** Set for wallets whose data cell we read directly. */
    readonly walletData?: WalletDataLayout;
    /**
     * Get-methods of code written in assembly without a method dictionary (wallets v1–v3 compare
     * the method id by hand), as observed running each known get-method on the TVM.
     */
    readonly getMethods?: readonly string[];
}

const KNOWN_CODE = new Map<string, KnownCode>([
    // wallets (@ton/ton `dist/wallets/*`; tonweb; ton-contracts)
    ['a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c', { interfaces: ['wallet_v1r1'], walletData: 'v1', getMethods: [] }],
    ['d4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c', { interfaces: ['wallet_v1r2'], walletData: 'v1', getMethods: ['seqno'] }],
    ['587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff', { interfaces: ['wallet_v1r3'], walletData: 'v1', getMethods: ['get_public_key', 'seqno'] }],
    ['5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329', { interfaces: ['wallet_v2r1'], walletData: 'v1', getMethods: ['seqno'] }],
    ['fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1', { interfaces: ['wallet_v2r2'], walletData: 'v1', getMethods: ['get_public_key', 'seqno'] }],
    ['b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581', { interfaces: ['wallet_v3r1'], walletData: 'v3', getMethods: ['seqno'] }],
    ['84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599', { interfaces: ['wallet_v3r2'], walletData: 'v3', getMethods: ['get_public_key', 'seqno'] }],
    ['64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d', { interfaces: ['wallet_v4r1'], walletData: 'v4' }],
    ['feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0', { interfaces: ['wallet_v4r2'], walletData: 'v4' }],
    // v5 beta: @ton/ton ships it as a library cell (hash f3d7…) pointing at code e4cf…
    ['f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93', { interfaces: ['wallet_v5_beta'], walletData: 'v5_beta' }],
    ['e4cf3b2f4c6d6a61ea0f2b5447d266785b26af3637db2deee6bcd1aa826f3412', { interfaces: ['wallet_v5_beta'], walletData: 'v5_beta' }],
    ['20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f', { interfaces: ['wallet_v5r1'], walletData: 'v5r1' }],
    ['9494d1cc8edf12f05671a1a9ba09921096eb50811e1924ec65c3c629fbb80812', { interfaces: ['wallet_highload_v2'], walletData: 'highload_v2' }],
    ['0ab1ff93a9e79c0deff4405d8dad6b5ac9f8c01b2f1ebcb4259feb9e98380099', { interfaces: ['wallet_highload_v2'], walletData: 'highload_v2' }],
    ['11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525', { interfaces: ['wallet_highload_v3'], walletData: 'highload_v3' }],
    // multisig: v1 (@ton/ton `dist/multisig`); v2 as deployed on mainnet (multisig-contract-v2's release build):
    // the multisig, its order's code, and the library cell orders are deployed with (what an order account's code hashes to)
    ['5a55840263d27945feb55b53fa85afa4f9dd61ea573e1eeba1ecac9c96581881', { interfaces: ['multisig_v1'] }],
    ['d3d14da9a627f0ec3533341829762af92b9540b21bf03665fac09c2b46eabbac', { interfaces: ['multisig_v2'] }],
    ['6305a8061c856c2ccf05dcb0df5815c71475870567cab5f049e340bcf59251f3', { interfaces: ['multisig_order_v2'] }],
    ['a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc', { interfaces: ['multisig_order_v2'] }],
    // staking pools: ton-blockchain/nominator-pool (TF) and orbs-network/single-nominator v1.0 / v1.1 (the code hashes mytonctrl deploys)
    ['9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf', { interfaces: ['tv_pool'] }],
    ['a42ae69eac76ffe0e452d3d4f13d387a14e46c01a5aadba5fc1d893e6c71f5ba', { interfaces: ['single_nominator_pool'] }],
    ['cc0d39589eb2c0cfe0fde28456657a3bdd3d953955ae3f98f25664ab3c904fbd', { interfaces: ['single_nominator_pool'] }],
    // the devnet's own Tolk contracts (contracts/, built by `npm run build:contracts`)
    ['4d4e4de3f0c8559d7cdafe5fb3389629bfff8cae7e3bf43b2e7859f749205e9c', { interfaces: ['jetton_master'] }],
    ['c0aed535e58e19f21f0e139cc53726ad417fb4a040c54b9b48d6c7f0aaa954d4', { interfaces: ['jetton_wallet'] }],
    ['07a2359340ce5bade3d15d0f7413cd1e53ca732d75aa5234f81719ce44f80556', { interfaces: ['nft_collection'] }],
    ['8728235b285c4b810c87117b8faa4e81f6a5c0d7880ca49ff86098e16ec3e3ff', { interfaces: ['nft_item'] }],
    ['21ed0c903d5f1e4c163f15ae9936ba21917dc327b32eca81460afff88996de43', { interfaces: ['librarian'] }],
    ['19066394386660d91b6e9e32b6a95e1d74afd7298617f6be800c7dee3097a71c', { interfaces: ['nft_collection'] }],
    ['feb76371ce0a90ff0292d4f03a81be49dba94b5ec2ba559d3e97c3730a5836fa', { interfaces: ['nft_item'] }],
    // staking pools (TF nominator pool and single-nominator pool layouts: readPoolStakers reads them as mainnet's)
    ['250ea77325763933e1d1ab8ffb31dca3fa8c6109fa8b51e76a2246624fbd91c0', { interfaces: ['tv_pool'] }],
    ['18804a132c87403855aa5d19f3b2415c3a5a457e3db3b3f739c87d24d4034e9e', { interfaces: ['single_nominator_pool'] }],
    // multisig v2 (wire-compatible with mainnet's): the multisig, its order's code, and the library cell orders are deployed with
    ['697e0bf03d9b63e875b2251b60a9d29b8ac29d7f2e1da4d8ca2e5cc7282eb501', { interfaces: ['multisig_v2'] }],
    ['1e59e2fbffefbfc6de3e2b361027366375aaa69706e24d5eb9a95eb2ccc3c6be', { interfaces: ['multisig_order_v2'] }],
    ['e2b989c2a85081f9678d031187cb4c1f934271540117aa8dc35e49f7bfee6e92', { interfaces: ['multisig_order_v2'] }],
    // jettons (TEP-74): @ton-community/assets-sdk 0.0.5 and tonweb 0.0.66 builds
    ['0571976c63ec1b7550230a2609dbedb36e1b64ef8d022a16b34ea57063185b2f', { interfaces: ['jetton_master'] }],
    ['f95ba0330b38cdf3459b1e811e5fc6fa6cfee566d7b764455c0468140365a737', { interfaces: ['jetton_master'] }],
    ['a760d629d5343e76d045017d9dc216fc8a307a8377815feb2b0a5c490e733486', { interfaces: ['jetton_wallet'] }],
    ['4adf48135cb575adbaed476799c87ff2904269b1f949ada4d0479e9104b6f217', { interfaces: ['jetton_wallet'] }],
    // NFTs (TEP-62): the same packages
    ['64bb2d4661b5f2dc1a83bf5cbbe09e92ac0b460a1b879a5519386fca4c348bca', { interfaces: ['nft_collection'] }],
    ['ba4d975d2b66231c1f0a0ccca6e8ff8f7ba0610c4b7639584b8e98303dc3128c', { interfaces: ['nft_item'] }],
    ['4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42', { interfaces: ['nft_item'] }],
    ['2ffbf52beaf816157bfc9726dc2548327fa87ebfd2696eed27a9c2cda25c9edc', { interfaces: ['nft_item'] }],
]);

/** The table entry for a code hash (hex), if any. */
export function knownCodeByHash(codeHash: string | null | undefined): KnownCode | undefined {
    return codeHash ? KNOWN_CODE.get(codeHash.toLowerCase()) : undefined;
}

/**
 * The table entry for a code cell: by its hash, or, for a library cell, by the hash of the code
 * it points at (the library itself is not needed for that).
 */
export function knownCode(code: Cell): KnownCode | undefined {
    const direct = KNOWN_CODE.get(code.hash().toString('hex'));
    if (direct) return direct;
    const target = libraryTargetHash(code);
    return target ? KNOWN_CODE.get(target.toString('hex')) : undefined;
}

/**
 * Adds (or replaces) a code hash, e.g. the devnet's own compiled contracts. Takes effect for
 * detections that start afterwards (a DetectionCache keeps profiles it already holds).
 */
export function registerKnownCode(codeHash: string, entry: KnownCode): void {
    KNOWN_CODE.set(codeHash.toLowerCase(), entry);
}

/** Interfaces a code hash gives by the tables alone: a known contract's, or a mainnet protocol's (`mainnet-contracts.ts`). */
export function interfacesByCodeHash(codeHash: string | null | undefined): string[] {
    const entry = knownCodeByHash(codeHash);
    if (entry) return [...entry.interfaces];
    return [...(protocolCodeByHash(codeHash)?.interfaces ?? [])];
}

/** Protocol interfaces of a code cell (by its hash, or a library cell's target), which add to what probing finds. */
export function protocolInterfaces(code: Cell): string[] {
    const direct = protocolCodeByHash(code.hash().toString('hex'));
    if (direct) return [...direct.interfaces];
    const target = libraryTargetHash(code);
    return [...(target ? protocolCodeByHash(target.toString('hex'))?.interfaces ?? [] : [])];
}

/** What the tables say of an account without running it: by its address (singletons) and by its code hash. */
export function knownInterfaces(address: string, codeHash: string | null | undefined): string[] {
    return [...new Set([...interfacesByAddress(address), ...interfacesByCodeHash(codeHash)])];
}

export function isWalletInterface(name: string): boolean {
    return name.startsWith('wallet_');
}
