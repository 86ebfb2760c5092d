import type { ApiServices } from '../services.ts';
import { AccountAnswers } from './account-answers.ts';
import { BlockchainAnswers } from './blockchain-answers.ts';
import { JettonAnswers } from './jetton-answers.ts';
import { ServiceAnswers } from './service-answers.ts';
import { TraceAnswers } from './trace-answers.ts';

/**
 * The read side: every answer about the index is put together here, from the store's reads and the
 * presenters, and every cache of answers and lookups lives here (keyed on the index generation, or
 * on immutable chain data). Routes parse a request, ask, and return what they get.
 */
export interface Answers {
    service: ServiceAnswers;
    blockchain: BlockchainAnswers;
    traces: TraceAnswers;
    jettons: JettonAnswers;
    accounts: AccountAnswers;
}

export function createAnswers(services: ApiServices): Answers {
    const { store, extraCurrencies } = services;
    return {
        service: new ServiceAnswers(store, services.chain),
        blockchain: new BlockchainAnswers(store, extraCurrencies),
        traces: new TraceAnswers(store, extraCurrencies),
        jettons: new JettonAnswers(store),
        accounts: new AccountAnswers(store),
    };
}
