/**
 * Mainnet protocol contracts the action patterns need, in one table.
 *
 * - By code hash, for contracts with many instances (pools, vaults). Only hashes a test checks are
 *   listed: against code a real trace deploys, or against the contract's build as an npm package
 *   publishes it. Where no such code is at hand, the patterns know the contract otherwise: by the
 *   singleton that reaches it (a router, a factory), by its protocol's ops and events, or by the
 *   facts (a pTON wallet is a wallet of a pTON master); sales by probing get_sale_data.
 *   A code deployed as a library cell is listed by the hash of that library cell, which is what an
 *   account's code hashes to (STON.fi v2 pools and vaults). These interfaces add to what probing the
 *   standard get-methods finds (a pool is also its LP jetton's master), so such code is still probed.
 * - By address, for true singletons: routers, factories, a protocol's one pool or vault, pTON masters.
 *
 * Each entry names where its hash or address is published. Abbreviations of the sources:
 *   tongo    tonkeeper/tongo abi/ (schemas/*.xml, inspect_test.go, generated_test.go)
 *   ota      tonkeeper/opentonapi pkg/defi and pkg/references
 *   ston     ston-fi/sdk, ston-fi/dex-core-v2 (their published mainnet addresses)
 *   toncodex npm @toncodex/sdk 1.0.26 (INIT_CODE_BASE64, ROUTER, pTON constants)
 *   dedust   npm @dedust/sdk 0.8.7 (BLANK_CODE, MAINNET_FACTORY_ADDR); DeDust's documentation
 *   coffee   swapcoffee/dex README (notable mainnet addresses)
 *   tstakers tonstakers/tonstakers-sdk constants
 */

export interface ProtocolCode {
    readonly interfaces: readonly string[];
    readonly contract: string;
    readonly source: string;
}

export const PROTOCOL_CODE: ReadonlyMap<string, ProtocolCode> = new Map<string, ProtocolCode>([
    // STON.fi v2 (library cells), as mainnet routers deploy their pools and vaults
    ['ec614ea4aaea3f7768606f1c1632b3374d3de096a1e7c4ba43c8009c487fee9d', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2 pool, constant product', source: 'tongo inspect_test; ota' }],
    ['919d86d8d541f956b50529660f41b4dd798e5a50aba300a35e327ea035435633', { interfaces: ['stonfi_pool_v2'], contract: 'STON.fi v2 pool (library 7bbe4710…)', source: 'deployed by a STON.fi v2 router with its pool swap, on mainnet' }],
    ['e2ade46f07c5a715a13f949236df452a5267385ce9af42efcdac2bfc883fb2d2', { interfaces: ['stonfi_vault_v2'], contract: 'STON.fi v2 vault', source: 'tongo generated_test' }],
    // DeDust: every contract is deployed with the blank code and sets its own code afterwards
    ['b0c7b8d5323cc9ba90fef98f9220fd86bee9382a8910b84f2926c4c9c986ebaf', { interfaces: ['dedust_blank'], contract: 'DeDust blank (deploy-time code)', source: 'dedust (BLANK_CODE)' }],
    // TONCO
    ['bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e', { interfaces: ['tonco_pool'], contract: 'TONCO pool v3', source: 'toncodex (POOLV3_CODE); tongo' }],
    ['a820f670f18a3afa05c5acb0f85e248c97b01b4d846aeeac4730622b832a8c20', { interfaces: ['tonco_account'], contract: 'TONCO position account', source: 'toncodex (ACCOUNTV3_CODE)' }],
    ['23091475641789bbbd415b0396a1f0a7a22701086c99dab178a353fc04ce7983', { interfaces: ['tonco_position_nft'], contract: 'TONCO position NFT', source: 'toncodex (POSITIONV3_CODE)' }],
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

/**
 * STON.fi's v2 routers (every pool type and version), as STON.fi's API lists them (ota's
 * references/whitelist.go is generated from it): each router is one account.
 */
const STONFI_V2_ROUTERS = [
    '0:014FD182C8323AD026C2E1CEAE4B7DC7143C1AA9DE8C75D8B0208C3B0974E035',
    '0:029F5EA6F4EAD9FA6C35F3A33836522954FF136F7ABA495F5A5FC3634A055F25',
    '0:031053133270BE82EE6FD94D1963C0186868403A4F537040A0D533AAB805B7AF',
    '0:0657DBF0D75B4A5B640E09809712621DCAE7CCDE9E427DC807718F4D8A204B7D',
    '0:091B9A7264F58489088C54975FEDB0D18112F383A411E7BA8A791B0EACC3BE9D',
    '0:1061B9DBD4418AD166FC9A4DEF116E2F6C74F2BFB70E71F2653D643CEFFEBFA9',
    '0:13BCEFC15DF905A1C397865BDED351197EC8B2163A15FB493D08B9A9830B7356',
    '0:20111179B6FACD9F400CD91AEBBE4F8CBAD18FEB464BEF46C93EEAAF093198FB',
    '0:222D5EBBEC1807357114B832770B0F0AE563A22523BCEB187C610AB62ED84912',
    '0:22BF722EC5803A64612E9CE819493B8C0736E98F045B5B0D3DF96B04FA2A8A28',
    '0:2C6B9A7F516C540DA53D9FD6E8DC202FDB144DACD16369D866EF425001EB1D56',
    '0:320FB3BC0AF55D47C00425CAFDE9F1C8D627C5AB6D52F1032DD5CCE2E487C93F',
    '0:3263694143A46C55EF3C08A4E6787DC1596B14096BBBBA040D69FE64C0B0D802',
    '0:33D43D195221BFF570B28EB275FB14F1F829E69D0DC9DCB30A43BB194EBF9794',
    '0:429752403644E932927D37795992D3CCA69D9BB517B6BD5C07A27D256BC89B46',
    '0:42B6537B672F7AAB1FB7C87D188B857448DB50FBC45B85868DB3AE4C0B81F07E',
    '0:5012B262D031E0298B1E207B6B424E0DE4240B0ABDD7630910204C341CDB38EF',
    '0:50FD4050BD1F6BC948CA0F08A3B688B2CA06B65A5FB2266E98F2097493E1C387',
    '0:52357FF99928A4055B6D5A121A21BD1FF23254EDF2FA92FCB2155A6977B75644',
    '0:598FB9E15CD841E0EF6B4429F8A864BCD8365A3D43E5C8CDA4E99ADBBD0D63DC',
    '0:5DF6F7D67E7E8C3AA0581046057B216A962398967D739C59257E9F01D36CE54B',
    '0:6280C9DB638354D6EC1DBF37ABB55E66BFFC88EF6F3647E7DF5BB5D91563C455',
    '0:632BF92363947F0E8C9345F7F5D3D57316B4A5285082FE038E58832DC84BC272',
    '0:6333B0763CA6BCD883CAAD415B30568A7900C51933119EBBD8D539A9B42ECAC7',
    '0:6A8024DDAED4A877BE94ADC39E00B4A22C2A775AE348150050BF28E395032FC0',
    '0:70A4118401BF8D823531A66011020565F02E05FF91AC5F1677769B00D6ACD07A',
    '0:720032F945AD9D95DACC48172D81F4A6D97D96D4FEB53555B64580DBF1E24D24',
    '0:7392A00DE15898752DB8943D9F14F7BCA1D1E7DAB5247CC61B109F3C10128101',
    '0:BAEE8DBED94CD1D5C245AD418BE4CECE0272E01BCA18FED1DA4E01A647ADCB40',
    '0:8274D9A3E106CD8EB83F3CCF89244F81F5FFDCCD72E4626ACEECFF54900EADB7',
    '0:834FD7424F9DA975FB0B356D1EEAA3F94F7720ABB338520EF6CE419880FD7BB6',
    '0:91830B856CF451ED31A87642706E3881B4DB5BD217F324896257EE6463A94AAF',
    '0:92E1411AE546892F33B2C8A89EA90390D8FF4CFBB917A643B91E73F706FDB9D1',
    '0:A1A113A9B9433872937A211CEA353AE43FD8956476281E0C4C0010D5536F2F95',
    '0:A2CA9A0158D2043E56AB069D3851E3F2123E731F46431F1B9136A275590C7714',
    '0:A2CFBE05095DA5625BC53C46212F726A97C5B020EED0BDBBD84FE2D01F44A6B4',
    '0:A9B98B6AE799E193060398BE0E5A3B2B758CBCDE08F9FF8F673514390AB3CECD',
    '0:B1D070C9FC3C4BC43490C9FB04A8723C46CEB99F282F766783F516BBAD8D7939',
    '0:B191855071F5CAC3DB89F8C32DBADBD1D82BB40D509915F2CD069E8DC1780EF2',
    '0:F5D6CB8792B3BFD4C6F9208758171E593F2DFC32E1E8787C7A740F9045A0FCC3',
    '0:C03F27BB1C03C0025E165E9CF98CE09D85FD87F61F50924CD143EE8AE6EB22B9',
    '0:C16148F92843D442B6E3EDD6BBE36518248793F505390B674AB22D7649D437CA',
    '0:D0EA3E77AB6D47B99B70EA87259BBCF82D4D9C1BA4B638ABE9492307E78F1DEE',
    '0:D36F5C354C2A2116A9CD7323EBADB6C1250740C303E7F036C2A1A4947744B94F',
    '0:E079B10C03ACAB888ED231F7C4EB90C8540F6BCD24667C657F832DF294884B89',
    '0:E1E681CFBDF4703EED9B3910460A82C43B859064A2F87E4E430F583275E346F6',
    '0:E2D5E594DC7596B2DF28C18F0E32AD83CFD9C92441D444ECDAF11FBFC0419BF3',
    '0:E49DCB89DBAECFCB71262F65C037B62C48D40C52EF2EF861EC5BD8D5963707F1',
    '0:F0CA38239D35C954F8D78E2DCE3ED52295C0A371E19540E2C6C2BF7FB112E322',
    '0:F1FBE8D453D3D4B4796D3D8657EF0773222D123D8DCA67C9EF3ACD2266F40977',
];
for (const address of STONFI_V2_ROUTERS) {
    SINGLETONS.set(address.toLowerCase(), { interfaces: ['stonfi_router_v2'], contract: 'STON.fi v2 router', source: "STON.fi API's router list; ota whitelist" });
}

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
