/**
 * The field tables: one row per field of an SMTP monitor, an alert and a group, carrying what the
 * rest of monsync needs to know of it. Everything else reads these rows instead of listing fields
 * again:
 *
 * - the types: MonitorSpec (model/desired.ts), the live Monitor's spec part (model/live.ts),
 *   RawMonitorFields / RawAlertFields (config/raw.ts), MonitorCreate (api/types.ts);
 * - the lists and defaults: MONITOR_SPEC_FIELDS, REQUIRED_ / OPTIONAL_MONITOR_FIELDS and
 *   ALERT_BODY_FIELDS (model/desired.ts), DOCUMENTED_MONITOR_DEFAULTS (model/live.ts);
 * - the normaliser of service answers (api/normalize.ts), the diff's field table and its defaults
 *   (plan/phases/values.ts), export's written order and factoring (export/build.ts);
 * - the repeated parts of schemas/monsync.schema.json (checks/config-schema.ts generates them; a test
 *   fails when the file is stale), and through it README's config reference.
 *
 * A row's `schema` is the JSON Schema of the field in a configuration file (its type, allowed
 * values, limits and the description editors show); the TypeScript type of the field is derived
 * from it (ValueOfSchema). Rows are in the order of the API document's create table (section 4.4,
 * 4.5), which is also the order of the configuration schema. Every monitor field is compared by a
 * plan, sent on create when declared (the required ones always) and on update when it differs, so
 * those columns are left out; what differs between fields is here.
 *
 * The emulator keeps its own knowledge of the fields on purpose (it stands in for the service and
 * must not share monsync's mistakes): test/model/monitor-fields.test.ts holds the two together.
 */

/** The part of JSON Schema the rows use. */
export interface FieldSchema {
  readonly type: 'string' | 'integer' | 'boolean' | 'array' | readonly ('string' | 'null')[];
  readonly description: string;
  readonly enum?: readonly (string | number | null)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly items?: { readonly type: 'string'; readonly minLength?: number; readonly description: string };
  readonly uniqueItems?: boolean;
}

/**
 * The TypeScript type of a value the schema admits: the allowed strings (and null) of an enum, a
 * number for numbers (an enum of numbers too: the service may hold others, which export warns of).
 */
export type ValueOfSchema<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E extends number
    ? number
    : E
  : S extends { readonly type: 'integer' }
    ? number
    : S extends { readonly type: 'boolean' }
      ? boolean
      : S extends { readonly type: 'string' }
        ? string
        : S extends { readonly type: 'array' }
          ? string[]
          : unknown;

export interface MonitorFieldRow {
  readonly field: string;
  readonly schema: FieldSchema;
  /** The service requires it on create: every declared monitor has it (here or in defaults.monitor). */
  readonly required: boolean;
  /** What the API document says an omitted field means (optional fields only). */
  readonly default?: string | number | boolean | null;
  /** Place among the fields a plan shows (after `label`, before `meta`): plans' canonical order. */
  readonly plan: number;
  /** How export writes it: on `each` monitor, or at this place among the fields `defaults.monitor` may take. */
  readonly export: 'each' | number;
}

/** The values a row's TIMER / TTL columns allow, named because checks and messages use them. */
const TIMERS = [3, 5, 10, 15, 20, 30] as const;
const TTLS = [0, 30, 60, 180, 300, 600, 1800] as const;

/** The SMTP monitor fields a configuration sets (API section 4.4 minus `type`, `label` and `meta`). */
export const MONITOR_FIELD_TABLE = [
  {
    field: 'timer',
    required: true,
    plan: 2,
    export: 0,
    schema: {
      type: 'integer',
      enum: TIMERS,
      description: 'How often the test runs, in minutes: 3, 5, 10, 15, 20 or 30. Required (here or in defaults.monitor).',
    },
  },
  {
    field: 'time_zone',
    required: true,
    plan: 3,
    export: 1,
    schema: {
      type: 'string',
      description: 'Time zone of the monitor, an IANA (Olson) name such as `Europe/London`. Required (here or in defaults.monitor).',
      minLength: 1,
    },
  },
  {
    field: 'ip_address',
    required: true,
    plan: 0,
    export: 'each',
    schema: {
      type: 'string',
      description:
        'Host name or IP address of the mail server tested, or `mx` / `mx:failover` for an MX record lookup of the test account\'s domain. Required (here or in defaults.monitor).',
      minLength: 1,
    },
  },
  {
    field: 'test_account',
    required: true,
    plan: 1,
    export: 'each',
    schema: {
      type: 'string',
      description: 'E-mail address that receives the test messages. Required (here or in defaults.monitor).',
      format: 'email',
    },
  },
  {
    field: 'use_tls',
    required: false,
    default: 'auto',
    plan: 6,
    export: 2,
    schema: {
      type: 'string',
      enum: ['off', 'on', 'auto'],
      description: 'TLS for delivery: `off`, `on` or `auto`. The service default is `auto`.',
    },
  },
  {
    field: 'attachment',
    required: false,
    default: null,
    plan: 7,
    export: 7,
    schema: {
      type: ['string', 'null'],
      enum: ['docx', 'pdf', null],
      description: 'Attach a `docx` or `pdf` file to each test message; `null` (or omitted) means no attachment.',
    },
  },
  {
    field: 'custom_subject',
    required: false,
    default: '',
    plan: 8,
    export: 8,
    schema: { type: 'string', description: 'Text inserted before the standard test message subject.' },
  },
  {
    field: 'custom_body',
    required: false,
    default: '',
    plan: 9,
    export: 9,
    schema: { type: 'string', description: 'Text inserted before the standard test message body.' },
  },
  {
    field: 'ttl',
    required: false,
    default: 0,
    plan: 11,
    export: 5,
    schema: {
      type: 'integer',
      enum: TTLS,
      description:
        'Seconds after which a test without a reply counts as failed, even if the reply arrives later: 0 (no TTL), 30, 60, 180, 300, 600 or 1800.',
    },
  },
  {
    field: 'ipv6',
    required: false,
    default: false,
    plan: 5,
    export: 4,
    schema: { type: 'boolean', description: 'true: deliver over IPv6 only; false: IPv4. The service default is false.' },
  },
  {
    field: 'message_format',
    required: false,
    default: 'text/plain',
    plan: 10,
    export: 6,
    schema: {
      type: 'string',
      enum: ['text/plain', 'text/html'],
      description: 'Format of the test message: `text/plain` (service default) or `text/html`.',
    },
  },
  {
    field: 'port',
    required: false,
    default: 25,
    plan: 4,
    export: 3,
    schema: { type: 'integer', minimum: 1, maximum: 65535, description: 'TCP port for delivery, 1-65535. The service default is 25.' },
  },
] as const satisfies readonly MonitorFieldRow[];

type MonitorRow = (typeof MONITOR_FIELD_TABLE)[number];
export type MonitorSpecField = MonitorRow['field'];
export type RequiredMonitorField = Extract<MonitorRow, { required: true }>['field'];
export type OptionalMonitorField = Extract<MonitorRow, { required: false }>['field'];
/** The value a monitor field holds in monsync (`attachment` none is null). */
export type MonitorFieldValue<F extends MonitorSpecField> = ValueOfSchema<Extract<MonitorRow, { field: F }>['schema']>;

/** The spec fields with their values: the required ones present, the others optional. */
export type MonitorSpecValues = { [F in RequiredMonitorField]: MonitorFieldValue<F> } & {
  [F in OptionalMonitorField]?: MonitorFieldValue<F>;
};

/** The `type` every monitor monsync declares has, and the schema of the field in a configuration. */
export const SMTP_TYPE_SCHEMA = {
  type: 'string',
  enum: ['smtp'],
  description: 'Monitor type. Only `smtp` monitors can be created and modified, so this is optional and may only be `smtp`.',
} as const;

/** The schema of a monitor's `meta` in a configuration (the documented default is `{}`). */
export const MONITOR_META_SCHEMA = {
  type: 'object',
  description:
    'String key/value pairs used for filtering (status and data endpoints). The key `managed-by` is reserved: monsync writes its ownership marker there. Default meta merges key by key under this.',
  propertyNames: { minLength: 1, not: { const: 'managed-by' } },
  additionalProperties: { type: 'string', description: 'A meta value (always a string: quote numbers and booleans).' },
} as const;

const byPlace = <R extends { field: string }>(rows: readonly R[], place: (r: R) => number): R['field'][] =>
  [...rows].sort((a, b) => place(a) - place(b)).map((r) => r.field);

/** Every monitor spec field, in plan order. */
export const MONITOR_SPEC_FIELDS: readonly MonitorSpecField[] = byPlace(MONITOR_FIELD_TABLE, (r) => r.plan);
/** The fields every monitor has, in plan order: `ip_address`, `test_account`, `timer`, `time_zone`. */
export const REQUIRED_MONITOR_FIELDS = MONITOR_SPEC_FIELDS.filter((f): f is RequiredMonitorField => monitorRow(f).required);
/** The fields a monitor may leave to the service's documented defaults, in plan order. */
export const OPTIONAL_MONITOR_FIELDS = MONITOR_SPEC_FIELDS.filter((f): f is OptionalMonitorField => !monitorRow(f).required);
/** Export writes these on each monitor. */
export const MONITOR_EACH_FIELDS = MONITOR_FIELD_TABLE.filter((r) => r.export === 'each').map((r) => r.field);
/** The fields export may move into `defaults.monitor`, in its written order. */
export const MONITOR_FACTORABLE_FIELDS = byPlace(
  MONITOR_FIELD_TABLE.filter((r): r is Extract<MonitorRow, { export: number }> => r.export !== 'each'),
  (r) => r.export,
);

/** The documented default of each optional field (API section 4.4): an omitted field means this value. */
export const MONITOR_FIELD_DEFAULTS = Object.fromEntries(
  MONITOR_FIELD_TABLE.filter((r) => 'default' in r).map((r) => [r.field, (r as MonitorFieldRow).default]),
) as { [F in OptionalMonitorField]: MonitorFieldValue<F> };

export function monitorRow(field: MonitorSpecField): MonitorFieldRow {
  return MONITOR_FIELD_TABLE.find((r) => r.field === field)!;
}

export const ALLOWED_TIMERS = TIMERS;
export const ALLOWED_TTLS = TTLS;

// ---------------------------------------------------------------------------------------------
// Alerts

export interface AlertFieldRow {
  readonly field: string;
  readonly schema: FieldSchema;
  /** `always`: every alert has it; `smtp`: alerts on SMTP monitors must have it (the service refuses one without). */
  readonly required: 'always' | 'smtp' | false;
  /** The subjects identify an alert; the other fields are its body, which `defaults.alert` may supply and export may factor out. */
  readonly body: boolean;
  /** What the service treats an omitted value as (none for the required ones). */
  readonly default?: string | boolean | readonly never[];
}

/** The fields of an up-down alert a configuration sets (API section 4.5 minus `type` and `monitor`), in plan order. */
export const ALERT_FIELD_TABLE = [
  {
    field: 'subject_init',
    required: 'always',
    body: false,
    schema: {
      type: 'string',
      description:
        'Subject of the message sent when the alert triggers, not blank. Together with the monitor it identifies the alert, so it must be unique per monitor.',
      minLength: 1,
      pattern: '\\S',
    },
  },
  {
    field: 'subject_term',
    required: 'always',
    body: false,
    schema: { type: 'string', description: 'Subject of the message sent when the alert resets, not blank.', minLength: 1, pattern: '\\S' },
  },
  {
    field: 'timeout',
    required: 'smtp',
    body: true,
    schema: {
      type: 'integer',
      minimum: 1,
      maximum: 9007199254740991,
      description: 'Minutes (1 or more) that tests must fail before the alert triggers. Required for SMTP alerts (here or in defaults.alert).',
    },
  },
  {
    field: 'alert_destinations',
    required: false,
    body: true,
    default: [],
    schema: {
      type: 'array',
      description:
        'Labels of the alert destinations (e-mail, SMS, voice) that receive the trigger and reset messages. Resolved against the account when planning.',
      items: { type: 'string', minLength: 1, description: 'Label of an alert destination.' },
      uniqueItems: true,
    },
  },
  {
    field: 'message_init',
    required: false,
    body: true,
    default: '',
    schema: { type: 'string', description: 'Body of the message sent when the alert triggers.' },
  },
  {
    field: 'message_term',
    required: false,
    body: true,
    default: '',
    schema: { type: 'string', description: 'Body of the message sent when the alert resets.' },
  },
  {
    field: 'down_only',
    required: false,
    body: true,
    default: false,
    schema: { type: 'boolean', description: 'true: only trigger (down) messages are sent; the reset is recorded but not sent.' },
  },
  {
    field: 'repeat',
    required: false,
    body: true,
    default: false,
    schema: { type: 'boolean', description: 'true: the alert keeps triggering while the alert condition holds.' },
  },
] as const satisfies readonly AlertFieldRow[];

type AlertRow = (typeof ALERT_FIELD_TABLE)[number];
export type AlertField = AlertRow['field'];
export type AlertBodyField = Extract<AlertRow, { body: true }>['field'];
export type AlertFieldValue<F extends AlertField> = ValueOfSchema<Extract<AlertRow, { field: F }>['schema']>;

/** Every alert field a plan compares, in plan order. */
export const ALERT_FIELD_NAMES: readonly AlertField[] = ALERT_FIELD_TABLE.map((r) => r.field);
/** Alert fields besides the two subjects: what `defaults.alert` may supply and export may factor out. */
export const ALERT_BODY_FIELDS = ALERT_FIELD_TABLE.filter((r): r is Extract<AlertRow, { body: true }> => r.body).map((r) => r.field);
/** What the service treats an omitted alert field as. */
export const ALERT_FIELD_DEFAULTS = Object.fromEntries(
  ALERT_FIELD_TABLE.filter((r) => 'default' in r).map((r) => [r.field, (r as AlertFieldRow).default]),
) as unknown as { readonly [F in Exclude<AlertBodyField, 'timeout'>]: AlertFieldValue<F> };

/** The alert body fields with their values, each optional (what `defaults.alert` and an alert may give). */
export type AlertBodyValues = { [F in AlertBodyField]?: AlertFieldValue<F> };

export const UP_DOWN_TYPE_SCHEMA = {
  type: 'string',
  enum: ['up-down'],
  description: 'Alert type. Only `up-down` alerts can be created, so this is optional and may only be `up-down`.',
} as const;

// ---------------------------------------------------------------------------------------------
// Groups

export interface GroupFieldRow {
  readonly field: string;
  readonly required: boolean;
  /** A plan compares it (`monitors` only when the configuration lists them). */
  readonly compared: boolean;
  /** Sent on create, and on update when it changed. */
  readonly sent: boolean;
}

/** The fields of a group (API section 4.3). Their configuration schema holds more (previous_names, disable_checks), written by hand. */
export const GROUP_FIELD_TABLE = [
  { field: 'name', required: true, compared: true, sent: true },
  { field: 'monitors', required: false, compared: true, sent: true },
] as const satisfies readonly GroupFieldRow[];

// ---------------------------------------------------------------------------------------------
// Service levels

/**
 * `slo`: a service-level objective, kept in the repository only: plan never sends it, never
 * compares it (the service has no such field), `report` measures against it and `exporter` exports
 * it. One schema, written into the four places that take it (`defaults.monitor`,
 * `templates.monitors`, `monitors[]`, `groups[]`) by checks/config-schema.ts; a monitor's is
 * inherited like its other fields (the monitor's own, else its template's, else defaults.monitor's,
 * whole: never merged key by key). The values' ranges are checked by config/slo.ts, with messages
 * a schema pattern could not give.
 */
export const SLO_FIELD = {
  field: 'slo',
  schema: {
    type: ['object', 'null'],
    description:
      'Service-level objective, kept in the repository only (plan never sends or compares it): the share of tests that must complete over a rolling window, optionally within a round-trip bound. `monsync report` gives its error budget, `monsync exporter` exports it. `null` declares none (over a default or a template).',
    additionalProperties: false,
    required: ['objective', 'window'],
    properties: {
      // No `type`: text or a number, which ajv's strict types refuse as a union; config/slo.ts says what is wrong.
      objective: {
        description: 'Share of tests that must complete (within `round_trip` when given): a percentage such as `99.5%` or a ratio such as `0.995`, above 0 and below 100%.',
      },
      window: {
        type: 'string',
        description: 'The rolling window the objective is over: a positive duration such as `30d`, `7d` or `12h`.',
      },
      round_trip: {
        description: 'A test whose round trip is longer than this counts against the objective, as a failed one does: a positive duration such as `30s` or `2m` (a bare number is seconds).',
      },
    },
  },
} as const;

/** A service-level objective as the state holds it (config/slo.ts reads it). */
export interface ServiceLevel {
  /** Share of tests that must be good, a ratio in (0, 1): 0.995 for `99.5%`. */
  objective: number;
  /** The rolling window, seconds. */
  window_seconds: number;
  /** A completed test slower than this many seconds counts as bad; absent: only failed tests are. */
  round_trip_seconds?: number;
}

/** `slo` as written (the schema's shape); null declares none. */
export interface RawServiceLevel {
  objective: string | number;
  window: string;
  round_trip?: string | number;
}
