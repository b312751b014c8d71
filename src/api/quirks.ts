/**
 * Which wire quirks normalize.ts absorbed, and how often: so an unexpected shape of the real service
 * is visible (`monsync doctor` prints them) instead of silently made canonical. One counter per
 * client (transport.ts puts it on every Origin); normalize.ts notes a quirk only on the branch that
 * absorbs it, so an answer in the documented shape costs nothing more than before.
 */

/** The quirks normalisation absorbs. Each note carries a detail: the field, or the value as sent. */
export type Quirk =
  /** `type: "DNS Query"`, `"SMTP"` where `dns-query`, `smtp` is canonical (detail: the value). */
  | 'monitor-type-form'
  /** `type: "Up/Down Alert"` (the list's display form; detail: the value). */
  | 'alert-type-form'
  /** `type: "EMAIL"` on a destination (detail: the value). */
  | 'destination-type-case'
  /** `use_tls: "AUTO"` and the like (detail: the field). */
  | 'enum-case'
  /** `timer: "5"` (detail: the field). */
  | 'number-as-string'
  /** `ipv6: 0`, `"true"` (detail: the field). */
  | 'boolean-as-number-or-string'
  /** A number where a string belongs, `label: 42` (detail: the field). */
  | 'string-as-number'
  /** `id: 10001` (detail: the field). */
  | 'id-as-number'
  /** `hostname` where `ip_address` is documented. */
  | 'hostname-for-ip-address'
  /** `flag` where `complete` is documented (test data). */
  | 'flag-for-complete'
  /** `attachment: ""` for no attachment. */
  | 'empty-attachment'
  /** `meta: []` for an empty map. */
  | 'meta-as-array'
  /** A monitor without `groups` (other types): membership is then read group by group. */
  | 'monitor-without-groups'
  /** Group `monitors` as bare ids (detail: the field). */
  | 'group-members-as-ids';

export interface QuirkCount {
  quirk: Quirk;
  /** The field or the value as sent. */
  detail: string;
  count: number;
}

/** Distinct details kept per quirk: a service sending endless variants cannot grow it without bound. */
const MAX_DETAILS = 32;

export class QuirkCounter {
  private readonly counts = new Map<Quirk, Map<string, number>>();

  note(quirk: Quirk, detail = ''): void {
    let byDetail = this.counts.get(quirk);
    if (byDetail === undefined) {
      byDetail = new Map();
      this.counts.set(quirk, byDetail);
    }
    const n = byDetail.get(detail);
    if (n !== undefined) byDetail.set(detail, n + 1);
    else if (byDetail.size < MAX_DETAILS) byDetail.set(detail, 1);
    else byDetail.set('(other)', (byDetail.get('(other)') ?? 0) + 1);
  }

  /** Every quirk met, by quirk then detail (sorted, so the same answers list the same way). */
  list(): QuirkCount[] {
    const out: QuirkCount[] = [];
    for (const [quirk, byDetail] of this.counts) {
      for (const [detail, count] of byDetail) out.push({ quirk, detail, count });
    }
    return out.sort((a, b) => (a.quirk < b.quirk ? -1 : a.quirk > b.quirk ? 1 : a.detail < b.detail ? -1 : a.detail > b.detail ? 1 : 0));
  }

  get size(): number {
    return this.counts.size;
  }
}
