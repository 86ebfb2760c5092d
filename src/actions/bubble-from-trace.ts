import type { Transaction } from '@ton/core';
import { formatRawAddress } from '../ton/address.ts';
import { WALLET_V4_INTERFACES, WALLET_V5R1, peekOp } from '../ton/bodies/index.ts';
import type { ActionDraft } from './action.ts';
import { parseTxBody, type Bubble, type BubbleTx } from './bubble.ts';
import type { ActionTraceNode } from './trace-input.ts';
import { ValueFlow } from './value-flow.ts';

/** plugin destruct request, sent by a v4 plugin (subscription) to the wallet */
export const OP_PLUGIN_DESTRUCT = 0x64737472;

/** Turns the trace into the bubble tree the patterns rewrite (one bubble per transaction). */
export function bubblesFromTrace(node: ActionTraceNode, parent?: ActionTraceNode): Bubble {
    const info = bubbleTx(node, parent);
    const children = [...node.children]
        .sort((a, b) => compareBigint(a.transaction.inMsg?.createdLt ?? 0n, b.transaction.inMsg?.createdLt ?? 0n))
        .map((child) => bubblesFromTrace(child, node));
    for (const draft of syntheticActions(info, node)) {
        children.push({
            info: { kind: 'action', action: draft },
            accounts: [info.account],
            children: [],
            valueFlow: new ValueFlow(),
            txHashes: [info.hash],
            merged: false,
        });
    }
    const accounts = info.inputFrom ? [info.account, info.inputFrom] : [info.account];
    return { info, accounts, children, valueFlow: transactionFlow(node), txHashes: [info.hash], merged: false };
}

function compareBigint(a: bigint, b: bigint): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

export function bubbleTx(node: ActionTraceNode, parent?: ActionTraceNode): BubbleTx {
    const ptx = node.transaction;
    const d = ptx.tx.description;
    const inMessage = ptx.inMsg?.message;
    const info = inMessage?.info;
    const internal = info?.type === 'internal' ? info : undefined;
    const external = internal === undefined;
    const body = inMessage ? inMessage.body : null;
    const opCode = body ? (peekOp(body) ?? null) : null;
    const inputExtra = new Map<number, bigint>();
    if (internal?.value.other) for (const [id, amount] of internal.value.other) inputExtra.set(id, amount);
    let parsedCache: BubbleTx['parsed'] | undefined;
    const compute = 'computePhase' in d ? d.computePhase : undefined;
    return {
        kind: 'tx',
        hash: ptx.hash,
        account: ptx.account,
        interfaces: node.interfaces,
        success: transactionSuccess(ptx.tx),
        external,
        tickTock: d.type === 'tick-tock',
        inputAmount: internal ? internal.value.coins + (internal.ihrDisabled ? 0n : internal.ihrFee) : 0n,
        inputExtra,
        inputFrom: internal ? formatRawAddress(internal.src) : null,
        inputFromInterfaces: parent?.interfaces ?? [],
        bounce: internal?.bounce ?? false,
        bounced: internal?.bounced ?? false,
        opCode,
        body,
        get parsed() {
            if (parsedCache === undefined) parsedCache = parseTxBody(body, external, node.interfaces);
            return parsedCache;
        },
        externalOut: ptx.outMsgs.filter((m) => m.msgType === 'ext_out_msg').map((m) => m.message.body),
        activeAtCompute: !(d.type === 'generic' && compute?.type === 'skipped' && compute.reason === 'no-state'),
        exitCode: compute?.type === 'vm' ? compute.exitCode : null,
        node,
    };
}

/**
 * Failed when a bounce phase exists, the compute phase was skipped for any reason but a missing
 * state, the VM failed or exited with a code other than 0/1, or the action phase failed.
 */
export function transactionSuccess(tx: Transaction): boolean {
    const d = tx.description;
    if (d.type !== 'generic' && d.type !== 'tick-tock') return true;
    if (d.type === 'generic' && d.bouncePhase) return false;
    const compute = d.computePhase;
    if (compute.type === 'skipped') {
        if (compute.reason !== 'no-state') return false;
    } else if (!compute.success || (compute.exitCode !== 0 && compute.exitCode !== 1)) {
        return false;
    }
    return !d.actionPhase || d.actionPhase.success;
}

/**
 * Nanograms the account gained: credit − values and IHR fees of its internal out-messages − all
 * fees it paid (transaction fees plus forwarding fees not already counted in them).
 */
export function transactionFlow(node: ActionTraceNode): ValueFlow {
    const ptx = node.transaction;
    const d = ptx.tx.description;
    const flow = new ValueFlow();
    let credit = 0n;
    let fwdFees = 0n;
    let actionFees = 0n;
    if (d.type === 'generic') credit = d.creditPhase?.credit.coins ?? 0n;
    if ((d.type === 'generic' || d.type === 'tick-tock') && d.actionPhase) {
        fwdFees = d.actionPhase.totalFwdFees ?? 0n;
        actionFees = d.actionPhase.totalActionFees ?? 0n;
    }
    let sent = 0n;
    let ihrFees = 0n;
    for (const out of ptx.outMsgs) {
        if (out.msgType !== 'int_msg') continue;
        const info = out.message.info;
        sent += out.value ?? 0n;
        if (info.type === 'internal' && !info.ihrDisabled) ihrFees += info.ihrFee;
    }
    const fees = ptx.tx.totalFees.coins + fwdFees - actionFees - ihrFees;
    flow.addGram(ptx.account, credit - sent - ihrFees - fees);
    flow.addFee(ptx.account, fees);
    return flow;
}

/** Actions a transaction implies by itself: a deployment, wallet extension changes. */
function syntheticActions(tx: BubbleTx, node: ActionTraceNode): ActionDraft[] {
    const out: ActionDraft[] = [];
    const ptx = node.transaction.tx;
    if (ptx.endStatus === 'active' && ptx.oldStatus !== 'active') {
        out.push({ type: 'ContractDeploy', success: true, address: tx.account, interfaces: [...node.interfaces] });
    }
    const wallet = tx.account;
    const success = tx.success;
    if (tx.interfaces.includes(WALLET_V5R1)) {
        const parsed = tx.parsed;
        if (
            parsed &&
            (parsed.name === 'wallet_signed_external_v5_r1' ||
                parsed.name === 'wallet_signed_internal_v5_r1' ||
                parsed.name === 'wallet_extension_action_v5_r1')
        ) {
            for (const a of parsed.value.extended ?? []) {
                if (a.type === 'add_extension') out.push({ type: 'AddExtension', success, wallet, extension: formatRawAddress(a.address) });
                else if (a.type === 'remove_extension') out.push({ type: 'RemoveExtension', success, wallet, extension: formatRawAddress(a.address) });
                else out.push({ type: 'SetSignatureAllowedAction', success, wallet, allowed: a.allowed });
            }
        }
    }
    if (tx.interfaces.some((i) => WALLET_V4_INTERFACES.includes(i))) {
        if (!tx.external && tx.opCode === OP_PLUGIN_DESTRUCT && tx.inputFrom) {
            out.push({ type: 'RemoveExtension', success, wallet, extension: tx.inputFrom });
        }
        const parsed = tx.parsed;
        if (tx.external && parsed?.name === 'wallet_signed_v4' && parsed.value.plugin) {
            const plugin = parsed.value.plugin;
            if (plugin.type === 'deploy_and_install_plugin') {
                out.push({ type: 'AddExtension', success, wallet, extension: `${plugin.workchain}:${plugin.stateInit.hash().toString('hex')}` });
            } else {
                const extension = formatRawAddress(plugin.address);
                out.push({ type: plugin.type === 'install_plugin' ? 'AddExtension' : 'RemoveExtension', success, wallet, extension });
            }
        }
    }
    return out;
}
