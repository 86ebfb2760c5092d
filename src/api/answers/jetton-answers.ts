import type { Store } from '../../store/store.ts';
import { jettonHistory, jettonMetadata } from '../../store/read/jettons.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import type { JettonMetadata } from '../../ton/jetton/jetton-preview.ts';
import { presentJettonHistory } from '../../present/jetton-history.ts';
import { isCurrentOperationText } from '../../present/stored/jetton-operation-text.ts';
import { GenerationCache } from './generation-cache.ts';

/** An account's jetton history (spec 2.10). */
export class JettonAnswers {
    // A page's parties and jettons are mostly the same few from one request to the next.
    private readonly interfaces: GenerationCache<string[]>;
    private readonly jettons: GenerationCache<JettonMetadata>;

    constructor(private readonly store: Store) {
        this.interfaces = new GenerationCache(accounts => accountInterfaces(store.db, accounts));
        this.jettons = new GenerationCache(masters => jettonMetadata(store.db, masters));
    }

    async history(account: string, beforeLt: bigint | undefined, limit: number) {
        const generation = await this.store.generation();
        return presentJettonHistory(await jettonHistory(this.store.db, account, beforeLt, limit, {
            textUsable: isCurrentOperationText,
            interfaces: accounts => this.interfaces.read(accounts, generation),
            jettons: masters => this.jettons.read(masters, generation),
        }));
    }
}
