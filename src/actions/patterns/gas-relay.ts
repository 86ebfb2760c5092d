import { OP_WALLET_V5_SIGNED_INTERNAL, WALLET_V5R1 } from '../../ton/bodies/index.ts';
import type { GasRelayDraft } from '../action.ts';
import { hasOp, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * A v5r1 wallet's signed request delivered by someone else (a gasless relayer), who pays its gas
 * with the attached value. The wallet's own sends stay separate actions.
 */
export const GasRelayer: Pattern<GasRelayDraft> = {
    name: 'GasRelayer',
    create: () => ({ type: 'GasRelay', success: false, amount: 0n, relayer: UNKNOWN_ADDRESS, target: UNKNOWN_ADDRESS }),
    root: {
        checks: [
            isTx,
            hasOp(OP_WALLET_V5_SIGNED_INTERNAL),
            txWhere((t) => t.interfaces.includes(WALLET_V5R1) && t.inputFrom !== null && t.inputFrom !== t.account),
            (b, ctx) => {
                const relayers = ctx.facts.gasRelayers;
                return relayers === undefined || relayers.has(tx(b).inputFrom!);
            },
        ],
        build: (d, b) => {
            const t = tx(b);
            d.amount = t.inputAmount;
            d.relayer = t.inputFrom!;
            d.target = t.account;
            d.success = t.success;
        },
    },
};
