/** What one account gained (positive) or lost (negative) over a trace: nanograms, fees, jettons. */
export interface AccountFlow {
    gram: bigint;
    fees: bigint;
    /** By jetton master address. */
    jettons: Map<string, bigint>;
}

/** Per-account value flow; merged bubbles sum theirs. */
export class ValueFlow {
    readonly accounts = new Map<string, AccountFlow>();

    private of(account: string): AccountFlow {
        let flow = this.accounts.get(account);
        if (!flow) {
            flow = { gram: 0n, fees: 0n, jettons: new Map() };
            this.accounts.set(account, flow);
        }
        return flow;
    }

    addGram(account: string, amount: bigint): void {
        this.of(account).gram += amount;
    }

    addFee(account: string, amount: bigint): void {
        this.of(account).fees += amount;
    }

    addJettons(account: string, master: string, amount: bigint): void {
        const jettons = this.of(account).jettons;
        jettons.set(master, (jettons.get(master) ?? 0n) + amount);
    }

    subJettons(account: string, master: string, amount: bigint): void {
        this.addJettons(account, master, -amount);
    }

    merge(other: ValueFlow): void {
        for (const [account, flow] of other.accounts) {
            this.addGram(account, flow.gram);
            this.addFee(account, flow.fees);
            for (const [master, amount] of flow.jettons) this.addJettons(account, master, amount);
        }
    }

    gramOf(account: string): bigint {
        return this.accounts.get(account)?.gram ?? 0n;
    }
}
