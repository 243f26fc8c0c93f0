// A worker thread for the shared-memory test: maps the lists the main thread posted and answers
// masks from them. Runs under Node's type stripping, like the generator script.
import { parentPort, workerData } from 'node:worker_threads';
import { classifyCode } from '../classify.ts';
import { DncSet, type SharedDncSet } from './set.ts';

const set = DncSet.fromShared(workerData as SharedDncSet);

parentPort!.on('message', (numbers: number[]) => {
  parentPort!.postMessage({
    version: set.version,
    shared: set.lists.every((list) => list.buffer instanceof SharedArrayBuffer),
    answers: numbers.map((number) => [classifyCode(number), set.mask(number)]),
  });
});
