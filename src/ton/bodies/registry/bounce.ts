import { OP_BOUNCE, loadBounce } from '../bounce.ts';
import { bigJson, cellJson, formatOpCode } from '../json.ts';
import { internalBody } from './entry.ts';

/** Bounced messages: 0xffffffff and the start of the original body. */
export const BOUNCE_BODIES = [
    internalBody(OP_BOUNCE, 'bounce', loadBounce, (v) => {
        const out: Record<string, unknown> = { payload: cellJson(v.payload) };
        if (v.originalOpCode !== undefined) out.original_op_code = formatOpCode(v.originalOpCode);
        if (v.originalQueryId !== undefined) out.original_query_id = bigJson(v.originalQueryId);
        return out;
    }),
] as const;
