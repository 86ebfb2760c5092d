/**
 * Mainnet protocol contracts the action patterns need, in one table.
 *
 * - By code hash, for contracts with many instances (pools, vaults, pTON wallets, sale contracts).
 *   A code deployed as a library cell is listed by the hash of that library cell, which is what an
 *   account's code hashes to (STON.fi v2 pools and vaults). These interfaces add to what probing the
 *   standard get-methods finds (a pool is also its LP jetton's master), so such code is still probed.
 * - By address, for true singletons: routers, factories, a protocol's one pool or vault, pTON masters.
 *
 * Each entry names where its hash or address is published. Abbreviations of the sources:
 *   tongo    tonkeeper/tongo abi/ (schemas/*.xml, inspect_test.go, generated_test.go)
 *   ota      tonkeeper/opentonapi pkg/defi and pkg/references
 *   ston     ston-fi/sdk (v1 router test data), ston-fi/dex-core-v2 and ston-fi/pton-contracts (libs/src/wrappers/PTon.ts)
 *   toncodex npm @toncodex/sdk 1.0.26 (INIT_CODE_BASE64, ROUTER, pTON constants)
 *   dedust   npm @dedust/sdk 0.8.7 (constants: BLANK_CODE, MAINNET_FACTORY_ADDR); the factory's stored codes (tongo's factory test data)
 *   coffee   swapcoffee/dex README (notable mainnet addresses)
 *   getgems  getgems-io/nft-contracts packages/contracts (CodeBoc constants)
 *   tstakers tonstakers/tonstakers-sdk constants; ton-blockchain/liquid-staking-contract
 */

export interface ProtocolCode {
    readonly interfaces: readonly string[];
    readonly contract: string;
    readonly source: string;
}

export const PROTOCOL_CODE: ReadonlyMap<string, ProtocolCode> = new Map<string, ProtocolCode>([
    // STON.fi v1
    ['82566ad72b6568fe7276437d3b0c911aab65ed701c13601941b2917305e81c11', { interfaces: ['stonfi_pool'], contract: 'STON.fi v1 pool', source: 'ston; tongo inspect_test' }],
    ['fe9085c0bcc4f58983c38c62a46d46646ccf5dd1ae042dfa0f8355d0e9812175', { interfaces: ['stonfi_lp_account'], contract: 'STON.fi v1 LP account', source: 'ston' }],
    // STON.fi v2 (library cells)
    ['ec614ea4aaea3f7768606f1c1632b3374d3de096a1e7c4ba43c8009c487fee9d', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2 pool, constant product', source: 'tongo inspect_test; ota' }],
    ['cf5d0b99fa704e7cf2c9d50a8ff8b8bc7ce0b8a74e414b9c279ac544e7aade05', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2.1 pool, constant product', source: 'tongo generated_test' }],
    ['fbc7e8fcca72c2b9c078b359ffa936f46384491b895b6577b0a6cb3f569040bc', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2 pool, stableswap', source: 'tongo inspect_test; ota' }],
    ['f04a14c3231221056c3499965e4604417e324f8e9121d840120d803288715594', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2 pool, stableswap', source: 'ota' }],
    ['dac47636ae899081ebd4f47dc90ef9de98456b1000591069773f683c6d601fa9', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2 pool, weighted stableswap', source: 'tongo inspect_test; ota' }],
    ['919d86d8d541f956b50529660f41b4dd798e5a50aba300a35e327ea035435633', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2 pool (library 7bbe4710…)', source: 'deployed by a STON.fi v2 router with its pool swap, on mainnet' }],
    ['e2ade46f07c5a715a13f949236df452a5267385ce9af42efcdac2bfc883fb2d2', { interfaces: ['stonfi_vault_v2'], contract: 'STON.fi v2 vault', source: 'tongo generated_test' }],
    ['3f1bb3192caaaa1ab7ae7474de50e2e3625fe2757aed4be4f4e9c3fc85ac0b9a', { interfaces: ['stonfi_lp_account_v2'], contract: 'STON.fi v2.1 LP account', source: 'tongo generated_test' }],
    ['ef73e257a8c09b7f3a027b14171c06818242e30a05b16cf1d01bed2fcc936efb', { interfaces: ['stonfi_router_v2'], contract: 'STON.fi v2.1 router', source: 'tongo generated_test' }],
    // pTON (STON.fi's wrapped native coin)
    ['8836d2f41b39cd2cbdd8a66c10f9665d075242a66003bd8f14485bd6b140d303', { interfaces: ['pton_wallet', 'pton_wallet_v1'], contract: 'pTON v1 wallet', source: 'ston (PTON_WALLET_CODE_v1)' }],
    ['cd88e6f3c2a9cf01bb003a2837ec0d92c19685ed1dbfffd94a545dcfdf0a14d9', { interfaces: ['pton_wallet', 'pton_wallet_v2'], contract: 'pTON v2 wallet', source: 'ston (PTON_WALLET_CODE_v2)' }],
    // DeDust: every contract is deployed with the blank code and sets its own code afterwards
    ['c0f9d14fbc8e14f0d72cba2214165eee35836ab174130912baf9dbfa43ead562', { interfaces: ['dedust_pool'], contract: 'DeDust pool', source: "dedust (the factory's pool code); ota" }],
    ['1275095b6da3911292406f4f4386f9e780099b854c6dee9ee2895ddce70927c1', { interfaces: ['dedust_pool'], contract: 'DeDust pool (earlier code)', source: 'tongo generated_test; ota' }],
    ['778f0d3fe6482c50888970df5e787f40f3a4ab282170c035a5920877058c99d3', { interfaces: ['dedust_pool'], contract: 'DeDust pool (earlier code)', source: 'ota' }],
    ['3b4fbadae83b06cb9dc2660a78104a32e0df54a8771d7fd72bea211fbabbfd8d', { interfaces: ['dedust_vault', 'dedust_vault_native'], contract: 'DeDust native vault', source: "dedust (the factory's vault codes)" }],
    ['a30f0486b813dfe55f549fa986272349a96335e1e44e7276d4878c870083306f', { interfaces: ['dedust_vault', 'dedust_vault_jetton'], contract: 'DeDust jetton vault', source: "dedust (the factory's vault codes)" }],
    ['80edc8d7bbbb6526c3b06ccb7c2d02a82c20d8ccdf431bf4088b1f1470cc94cc', { interfaces: ['dedust_liquidity_deposit'], contract: 'DeDust liquidity deposit', source: "dedust (the factory's deposit code)" }],
    ['b0c7b8d5323cc9ba90fef98f9220fd86bee9382a8910b84f2926c4c9c986ebaf', { interfaces: ['dedust_blank'], contract: 'DeDust blank (deploy-time code)', source: 'dedust (BLANK_CODE)' }],
    // TONCO
    ['bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e', { interfaces: ['tonco_pool'], contract: 'TONCO pool v3', source: 'toncodex (INIT_CODE_BASE64.pool); tongo' }],
    ['9b9891eaa7db7becc6ccdda1bd9a8d25dc3df2817d57e4b27ec003daf81a4439', { interfaces: ['tonco_router'], contract: 'TONCO router v3', source: 'tongo' }],
    ['a820f670f18a3afa05c5acb0f85e248c97b01b4d846aeeac4730622b832a8c20', { interfaces: ['tonco_account'], contract: 'TONCO position account', source: 'toncodex (INIT_CODE_BASE64.account)' }],
    ['23091475641789bbbd415b0396a1f0a7a22701086c99dab178a353fc04ce7983', { interfaces: ['tonco_position_nft'], contract: 'TONCO position NFT', source: 'toncodex (INIT_CODE_BASE64.positionnft)' }],
    // Coffee DEX (swap.coffee)
    ['d236d360e53464a3a47837743602a9b04b501a329bbc20c356c24cfd355378cd', { interfaces: ['coffee_pool'], contract: 'Coffee DEX pool', source: 'tongo inspect_test' }],
    // Tonstakers
    ['192535677eed65c20ac387efe4dd7415ad9ebb9349103e87c60e592538c9dcf3', { interfaces: ['tonstake_pool'], contract: 'Tonstakers pool', source: 'tongo inspect_test; ota' }],
    // Getgems sales and auctions (also found by probing get_sale_data; the table spares the probe)
    ['da9b9fce22e87c496572d20365259579bccef91a720357ccbe8c052efc9be08f', { interfaces: ['nft_sale'], contract: 'Getgems fixed-price sale v1', source: 'getgems' }],
    ['8278f4c5233de6fbedc969af519344a7a9bffc544856dba986a95c0bcf8571c9', { interfaces: ['nft_sale', 'nft_sale_getgems_v2'], contract: 'Getgems fixed-price sale v2', source: 'getgems; tongo' }],
    ['32050dfac44f64866bcc86f2cd9e1305fe9dcadb3959c002237cfb0902d44323', { interfaces: ['nft_sale', 'nft_sale_getgems_v3'], contract: 'Getgems fixed-price sale v3', source: 'getgems; tongo' }],
    ['deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31', { interfaces: ['nft_sale', 'nft_sale_getgems_v3'], contract: 'Getgems fixed-price sale v3r2', source: 'getgems; tongo' }],
    ['24221fa571e542e055c77bedfdbf527c7af460cfdc7f344c450787b4cfa1eb4d', { interfaces: ['nft_sale', 'nft_sale_getgems_v3'], contract: 'Getgems fixed-price sale v3r3', source: 'getgems; tongo' }],
    ['6b95a6418b9c9d2359045d1e7559b8d549ae0e506f24caab58fa30c8fb1feb86', { interfaces: ['nft_sale', 'nft_sale_getgems_v4'], contract: 'Getgems fixed-price sale v4r1', source: 'getgems; tongo' }],
    ['fc00a29dd0205bcdcc0d3ffb9ca38cc3c8c159ec60d8aa543240a92f10592d40', { interfaces: ['nft_auction_v1'], contract: 'Getgems auction v1', source: 'getgems' }],
    ['6668872fa79705443ffd47523e8e9ea9f76ab99f9a0b59d27de8f81a1c27b9d4', { interfaces: ['nft_auction_v1', 'nft_auction_getgems_v3'], contract: 'Getgems auction v2', source: 'getgems; tongo' }],
    ['1bd9c5a39bffb7a0f341588b5dd92b813a842bf65ef14109382200ceaf8f72df', { interfaces: ['nft_auction_v1', 'nft_auction_getgems_v3'], contract: 'Getgems auction v3r2', source: 'getgems; tongo' }],
    ['bb6f62ade0feb2d79fab3b8aebf0930af98553df60093b2027f0a8bf169bfcec', { interfaces: ['nft_auction_v1', 'nft_auction_getgems_v3'], contract: 'Getgems auction v3r3', source: 'getgems' }],
    ['ce5a78534eaaa6ceed8dafd486d076eb60a9b0d6dbfb53676f662649c0689956', { interfaces: ['nft_auction_v1', 'nft_auction_getgems_v4'], contract: 'Getgems auction v4r1', source: 'getgems; tongo' }],
]);

interface Singleton {
    readonly interfaces: readonly string[];
    readonly contract: string;
    readonly source: string;
}

/** Raw addresses (lower-case `wc:hex`) of single-instance contracts. */
const SINGLETONS = new Map<string, Singleton>([
    // EQB3ncyBUTjZUA5EnFKR5_EnOMI9V1tTEAAPaiU71gc4TiUt
    ['0:779dcc815138d9500e449c5291e7f12738c23d575b5310000f6a253bd607384e', { interfaces: ['stonfi_router'], contract: 'STON.fi v1 router', source: 'ston; ota whitelist' }],
    // EQCM3B12QK1e4yZSf8GtBRT0aLMNyEsBc_DhVfRRtOEffLez
    ['0:8cdc1d7640ad5ee326527fc1ad0514f468b30dc84b0173f0e155f451b4e11f7c', { interfaces: ['pton_minter'], contract: 'pTON v1 master', source: 'ston (PTON_MAINNET_ADDRESS_v1); ota' }],
    // EQBnGWMCf3-FZZq1W4IWcWiGAc3PHuZ0_H-7sad2oY00o83S
    ['0:671963027f7f85659ab55b821671688601cdcf1ee674fc7fbbb1a776a18d34a3', { interfaces: ['pton_minter'], contract: 'pTON v2 master', source: 'ston (PTON_MAINNET_ADDRESS_v2); ota' }],
    // EQCUnExmdgwAKADi-j2KPKThyQqTc7U650cgM0g78UzZXn9J
    ['0:949c4c66760c002800e2fa3d8a3ca4e1c90a9373b53ae7472033483bf14cd95e', { interfaces: ['pton_minter'], contract: "pTON master of TONCO's router", source: 'toncodex (pTON_MINTER)' }],
    // EQBfBWT7X2BHg9tXAxzhz2aKiNTU1tpt5NsiK0uSDW_YAJ67
    ['0:5f0564fb5f604783db57031ce1cf668a88d4d4d6da6de4db222b4b920d6fd800', { interfaces: ['dedust_factory'], contract: 'DeDust factory', source: 'dedust (MAINNET_FACTORY_ADDR)' }],
    // EQDa4VOnTYlLvDJ0gZjNYm5PXfSmmtL6Vs6A_CZEtXCNICq_
    ['0:dae153a74d894bbc32748198cd626e4f5df4a69ad2fa56ce80fc2644b5708d20', { interfaces: ['dedust_vault', 'dedust_vault_native'], contract: 'DeDust native vault', source: 'DeDust documentation (DEDUST_NATIVE_VAULT)' }],
    // EQC_-t0nCnOFMdp7E7qPxAOCbCWGFz-e3pwxb6tTvFmshjt5
    ['0:bffadd270a738531da7b13ba8fc403826c2586173f9ede9c316fab53bc59ac86', { interfaces: ['tonco_router'], contract: 'TONCO router v3', source: 'toncodex (ROUTER); ota' }],
    // EQAsf2sDPfoo-0IjnRA7l_gJBB9jyo4zqfCG_1IFCCI_Qbef
    ['0:2c7f6b033dfa28fb42239d103b97f809041f63ca8e33a9f086ff520508223f41', { interfaces: ['coffee_factory'], contract: 'Coffee DEX factory', source: 'coffee' }],
    // EQDbLqT_zhxpERj0EnXG2iqr1g71ODb_Xoc74R8RzUSElKGD
    ['0:db2ea4ffce1c691118f41275c6da2aabd60ef53836ff5e873be11f11cd448494', { interfaces: ['coffee_vault', 'coffee_vault_native'], contract: 'Coffee DEX native vault', source: 'coffee' }],
    // EQCkWxfyhAkim3g2DjKQQg8T5P4g-Q1-K_jErGcDJZ4i-vqR
    ['0:a45b17f28409229b78360e3290420f13e4fe20f90d7e2bf8c4ac6703259e22fa', { interfaces: ['tonstake_pool'], contract: 'Tonstakers pool', source: 'tstakers (STAKING_CONTRACT_ADDRESS); ota' }],
]);

export function protocolCodeByHash(codeHash: string | null | undefined): ProtocolCode | undefined {
    return codeHash ? PROTOCOL_CODE.get(codeHash.toLowerCase()) : undefined;
}

/** Interfaces of a singleton contract at this raw address (`wc:hex`, any case). */
export function interfacesByAddress(address: string): string[] {
    return [...(SINGLETONS.get(address.toLowerCase())?.interfaces ?? [])];
}

/** Every singleton, for tests and documentation. */
export function singletonAddresses(): ReadonlyMap<string, Singleton> {
    return SINGLETONS;
}
