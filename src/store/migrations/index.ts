import type { Migration, MigrationProvider } from 'kysely';
import type { StoreDialect } from '../schema.ts';
import { initialSchema } from './0001-initial.ts';
import { tokensAndWallets } from './0002-tokens-and-wallets.ts';
import { multisigMembers } from './0003-multisig-members.ts';
import { chainConfig } from './0004-chain-config.ts';
import { publicLibraries } from './0005-public-libraries.ts';
import { poolStakers } from './0006-pool-stakers.ts';
import { extraBalances } from './0007-extra-balances.ts';
import { multisigOrders } from './0008-multisig-orders.ts';
import { indexGeneration } from './0009-index-generation.ts';
import { generationNotify } from './0010-generation-notify.ts';
import { transactionTexts } from './0011-transaction-texts.ts';
import { blockTexts } from './0012-block-texts.ts';
import { jettonHistory } from './0013-jetton-history.ts';
import { untextedHistory } from './0014-untexted-history.ts';
import { protocolInterfaces } from './0015-protocol-interfaces.ts';
import { historyTemplates } from './0016-history-templates.ts';

/** Versioned migrations, applied in name order at start. Never edit a released one; add the next. */
export function migrationProvider(dialect: StoreDialect): MigrationProvider {
    return {
        async getMigrations(): Promise<Record<string, Migration>> {
            return {
                '0001-initial': initialSchema(dialect),
                '0002-tokens-and-wallets': tokensAndWallets(dialect),
                '0003-multisig-members': multisigMembers(),
                '0004-chain-config': chainConfig(dialect),
                '0005-public-libraries': publicLibraries(dialect),
                '0006-pool-stakers': poolStakers(),
                '0007-extra-balances': extraBalances(),
                '0008-multisig-orders': multisigOrders(dialect),
                '0009-index-generation': indexGeneration(),
                '0010-generation-notify': generationNotify(dialect),
                '0011-transaction-texts': transactionTexts(dialect),
                '0012-block-texts': blockTexts(dialect),
                '0013-jetton-history': jettonHistory(dialect),
                '0014-untexted-history': untextedHistory(),
                '0015-protocol-interfaces': protocolInterfaces(),
                '0016-history-templates': historyTemplates(dialect),
            };
        },
    };
}
