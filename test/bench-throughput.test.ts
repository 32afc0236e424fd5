import { describe, expect, it } from 'vitest';
import { cpusOf } from '../bench/throughput.js';

describe('the throughput bench pins its client and servers to CPUs of their own', () => {
  it('reads the CPUs of a taskset answer, lists and ranges alike', () => {
    expect(cpusOf("pid 12's current affinity list: 0,1\n")).toEqual(['0', '1']);
    expect(cpusOf("pid 12's current affinity list: 0-3")).toEqual(['0', '1', '2', '3']);
    expect(cpusOf("pid 7's current affinity list: 2,4-5,9")).toEqual(['2', '4', '5', '9']);
  });

  it('reads one CPU as one, and nothing from an answer without a list', () => {
    expect(cpusOf("pid 12's current affinity list: 3")).toEqual(['3']);
    expect(cpusOf('taskset: failed to get pid 12 affinity:')).toEqual([]);
    expect(cpusOf("pid 12's current affinity list: 5-2")).toEqual([]);
  });
});
