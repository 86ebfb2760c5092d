/**
 * Contract interfaces recognised by the hash of their code cell. Hashes are facts about
 * published contract code (wallet versions from @ton/ton and the reference wallets).
 */
const KNOWN_CODE: Record<string, string[]> = {
    a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c: ['wallet_v1r1'],
    d4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c: ['wallet_v1r2'],
    '587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff': ['wallet_v1r3'],
    '5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329': ['wallet_v2r1'],
    fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1: ['wallet_v2r2'],
    b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581: ['wallet_v3r1'],
    '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599': ['wallet_v3r2'],
    '64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d': ['wallet_v4r1'],
    feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0: ['wallet_v4r2'],
    f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93: ['wallet_v5_beta'],
    '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f': ['wallet_v5r1'],
    '9494d1cc8edf12f05671a1a9ba09921096eb50811e1924ec65c3c629fbb80812': ['wallet_highload_v2'],
    '0ab1ff93a9e79c0deff4405d8dad6b5ac9f8c01b2f1ebcb4259feb9e98380099': ['wallet_highload_v2'],
    '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525': ['wallet_highload_v3'],
    '5a55840263d27945feb55b53fa85afa4f9dd61ea573e1eeba1ecac9c96581881': ['multisig_v1'],
};

export function interfacesByCodeHash(codeHash: string | null | undefined): string[] {
    return codeHash ? KNOWN_CODE[codeHash] ?? [] : [];
}

export function isWalletInterface(name: string): boolean {
    return name.startsWith('wallet_');
}
