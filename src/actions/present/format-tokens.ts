/** The native coin as previews show it. */
export const NATIVE_SYMBOL = 'gram';
export const NATIVE_DECIMALS = 9;

const SIGNIFICANT_DIGITS = 3;

/**
 * A human amount: shifted by `decimals`, cut (not rounded) to the integer part from 100 up, else to
 * the fewest fractional digits that keep 3 significant ones; integer digits grouped in threes with
 * spaces; then the symbol. `formatTokens(1_500_000_000n, 9, 'gram')` → "1.5 gram".
 */
export function formatTokens(amount: bigint, decimals: number, symbol: string): string {
    const negative = amount < 0n;
    const abs = negative ? -amount : amount;
    const scale = 10n ** BigInt(decimals);
    const integer = abs / scale;
    const fraction = (abs % scale).toString().padStart(decimals, '0');
    let shown = '';
    if (integer < 100n && decimals > 0) {
        const digits = integer === 0n ? leadingZeros(fraction) + SIGNIFICANT_DIGITS : SIGNIFICANT_DIGITS - integer.toString().length;
        shown = fraction.slice(0, Math.min(digits, decimals)).replace(/0+$/, '');
    }
    const text = groupThousands(integer.toString()) + (shown ? `.${shown}` : '');
    return `${negative && (integer > 0n || shown) ? '-' : ''}${text} ${symbol}`;
}

export function formatGrams(amount: bigint): string {
    return formatTokens(amount, NATIVE_DECIMALS, NATIVE_SYMBOL);
}

function leadingZeros(digits: string): number {
    const m = /^0*/.exec(digits);
    return m ? m[0].length : 0;
}

function groupThousands(digits: string): string {
    return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}
