/** TEP-64 metadata as the index holds it: text attributes, merged from chain and the off-chain document. */
export type JettonMetadata = Record<string, string>;

/** JettonPreview (spec 2.3) from what is known of a jetton master. */
export function jettonPreview(master: string, metadata: JettonMetadata | undefined) {
    const decimals = Number(metadata?.decimals ?? '9');
    return {
        address: master,
        name: metadata?.name ?? '',
        symbol: metadata?.symbol ?? '',
        decimals: Number.isInteger(decimals) && decimals >= 0 && decimals <= 255 ? decimals : 9,
        image: metadata?.image ?? '',
        verification: 'none',
        score: 0,
        description: metadata?.description,
    };
}
