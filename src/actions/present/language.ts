export type PreviewLanguage = 'en' | 'ru';

const SUPPORTED: readonly PreviewLanguage[] = ['en', 'ru'];

/**
 * The preview language an Accept-Language header asks for: the supported language with the
 * highest q-value (ties: the one listed first), matched on the primary subtag; English otherwise.
 */
export function pickLanguage(acceptLanguage: string | undefined): PreviewLanguage {
    if (!acceptLanguage) return 'en';
    let best: { lang: PreviewLanguage; q: number } | undefined;
    for (const part of acceptLanguage.split(',')) {
        const [tag, ...params] = part.trim().split(';');
        const primary = tag.trim().toLowerCase().split('-')[0];
        let q = 1;
        for (const p of params) {
            const [k, v] = p.trim().split('=');
            if (k?.trim().toLowerCase() === 'q') {
                const n = Number(v);
                q = Number.isFinite(n) && v?.trim() !== '' ? n : 0;
            }
        }
        if (q <= 0 || q > 1) continue;
        const lang = primary === '*' ? 'en' : SUPPORTED.find((l) => l === primary);
        if (lang && (!best || q > best.q)) best = { lang, q };
    }
    return best?.lang ?? 'en';
}
