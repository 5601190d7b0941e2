import { describe, expect, it } from 'vitest';
import { exportName, reportCsv } from './exportReport';
import { testReport } from './reportTestKit';

describe('reportCsv', () => {
  const csv = reportCsv(testReport(), 'Prod, eu');
  const lines = csv.split('\r\n');

  it('writes every table as a named section with its header', () => {
    for (const name of [
      'summary',
      'types',
      'encodings',
      'ttl',
      'size_histogram',
      'length_histogram',
      'top_by_memory',
      'top_by_length',
      'top_strings_by_length',
      'namespaces',
    ]) {
      expect(lines).toContain(name);
    }
    const types = lines.indexOf('types');
    expect(lines[types + 1]).toBe(
      'type,count,percent,ci_low,ci_high,memory_bytes,estimated_count,estimated_memory_bytes,memory_low_bytes,memory_high_bytes,memory_not_estimable',
    );
    expect(lines[types + 2]).toBe('string,3,75,75,75,200,3,200,200,200,');
    expect(lines).toContain('profile,"Prod, eu"');
  });

  it('neutralises a key name that looks like a formula', () => {
    expect(lines).toContain('1,"\'=HYPERLINK(""http://x"")",22,false,hash,listpack,200,3,-1');
    expect(lines).toContain('2,user:1,6,false,string,embstr,60,5,90');
  });

  it('keeps the prefix tree flat with each parent', () => {
    expect(lines).toContain('user:session:,user:,2,1,50,25,1,1,1');
  });
});

describe('exportName', () => {
  it('names the profile, db, method and time with file-system-safe characters', () => {
    const at = new Date('2024-05-01T12:30:05.123Z');
    expect(exportName({ db: 3, method: 'census' }, 'Prod cache / eu', 'csv', at)).toBe('sampling-Prod_cache_eu-db3-census-2024-05-01T12-30-05.csv');
    expect(exportName({ db: 0, method: 'sample' }, '***', 'json', at)).toBe('sampling-profile-db0-sample-2024-05-01T12-30-05.json');
  });
});
