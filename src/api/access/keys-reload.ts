import { ApiKeysFileError, readApiKeysFile, type ApiKeyRing } from './api-keys.ts';

/** Reads the keys file again into `ring`; a file that does not read keeps the keys in force. */
export function reloadApiKeys(ring: ApiKeyRing, path: string, log: (line: string, level: 'info' | 'warn') => void): boolean {
    try {
        const keys = readApiKeysFile(path);
        ring.replace(keys);
        log(`API keys reloaded from ${path}: ${keys.length} key(s)`, 'info');
        return true;
    } catch (error) {
        if (!(error instanceof ApiKeysFileError)) throw error;
        log(`API keys not reloaded, the previous ${ring.size} key(s) stay in force: ${error.message}`, 'warn');
        return false;
    }
}

/** Reloads the keys file on every SIGHUP; returns the function that stops listening. */
export function reloadApiKeysOnSighup(ring: ApiKeyRing, path: string, log: (line: string, level: 'info' | 'warn') => void): () => void {
    const onSignal = () => {
        reloadApiKeys(ring, path, log);
    };
    process.on('SIGHUP', onSignal);
    return () => {
        process.off('SIGHUP', onSignal);
    };
}
