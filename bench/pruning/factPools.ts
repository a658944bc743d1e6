/**
 * What the pruning benchmark's conversations draw their facts from: keys with the values each may
 * take. Every key is unique and no key ends another (`retry_limit` and `max_retry_limit` never
 * both), so a fact is never found inside another.
 */

/** A list written as `a|b|c`. */
const listOf = (text: string): readonly string[] => text.split('|');

/** `key=a|b|c;key2=…` as a map. */
const poolOf = (text: string): ReadonlyMap<string, readonly string[]> =>
  new Map(
    text
      .split(';')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => {
        const [key, values] = entry.split('=') as [string, string];
        return [key, listOf(values)] as const;
      }),
  );

/**
 * Numeric settings, found in configuration files and source constants.
 *
 * @example
 * ```ts
 * NUMERIC_SETTINGS.get('retry_limit'); // ['3', '5', '8', '2']
 * ```
 */
export const NUMERIC_SETTINGS = poolOf(
  'retry_limit=3|5|8|2; request_timeout_ms=2500|4000|10000|1500; max_upload_mb=25|50|100|10;' +
    'pool_size=10|20|40|16; cache_ttl_s=300|600|90|1800; worker_count=4|8|12|6;' +
    'rate_limit_rps=100|250|50|400; session_ttl_min=30|60|15|120; max_page_size=50|100|200|25;' +
    'backoff_base_ms=200|500|100|1000; queue_depth_alarm=1000|5000|2500|750;' +
    'circuit_breaker_errors=5|10|20|3; max_connections=200|500|1000|150;' +
    'batch_window_ms=50|100|250|20; health_check_interval_s=10|30|60|5;' +
    'log_retention_days=7|14|30|90; statement_timeout_ms=5000|15000|30000|2000;' +
    'upload_chunk_kb=256|512|1024|128; token_refresh_min=5|10|45|20; gc_interval_s=60|120|300|30',
);

/**
 * Settings with text values, found in configuration files and documents (never in source
 * constants, where they would be quoted).
 *
 * @example
 * ```ts
 * TEXT_SETTINGS.get('log_level'); // ['info', 'warn', 'debug', 'error']
 * ```
 */
export const TEXT_SETTINGS = poolOf(
  'log_level=info|warn|debug|error; region=eu-west-1|us-east-2|ap-south-1|eu-central-1;' +
    'queue_name=payments-high|payments-low|billing-main|billing-retry;' +
    'storage_bucket=acme-uploads-prod|acme-uploads-eu|acme-archive|acme-scratch;' +
    'checkout_v2=enabled|disabled|canary; owner_team=Payments Core|Platform|Growth|Risk;' +
    'nightly_job_at=02:30 UTC|03:15 UTC|01:00 UTC|04:45 UTC; tls_min_version=1.2|1.3;' +
    'image_tag=v2.4.1|v2.4.2|v2.5.0|v2.5.1; primary_db=orders-pg-1|orders-pg-2|orders-pg-3;' +
    'cdn_provider=Fastly|Cloudflare|Akamai; alert_email=oncall@acme.dev|payments@acme.dev|platform@acme.dev',
);

/**
 * Facts of the team's documents, found by searching (they do not change during a conversation).
 *
 * @example
 * ```ts
 * DOCUMENT_FACTS.has('escalation_contact'); // true
 * ```
 */
export const DOCUMENT_FACTS = poolOf(
  'escalation_contact=Priya Nair|Tomás Ruiz|Mei Chen|Kwame Mensah;' +
    'incident_channel=#inc-payments|#inc-platform|#inc-checkout;' +
    'runbook_id=RB-112|RB-204|RB-377|RB-415; sla_p1_minutes=15|30|60;' +
    'pager_rotation=weekly|daily|biweekly; error_budget_pct=0.1|0.5|1.0;' +
    'slo_latency_p99_ms=300|500|800; backup_schedule=daily 01:00|hourly|daily 23:30;' +
    'data_owner=Ingrid Lund|Rafael Souza|Yuki Sato; compliance_scope=PCI|SOC2|GDPR;' +
    'api_version=2024-06-01|2025-01-15|2025-09-30; deprecation_date=2026-06-30|2026-09-01|2026-12-15;' +
    'support_tier=gold|silver|platinum; vendor_ticket=VND-5521|VND-6090|VND-7313;' +
    'on_call_primary=Elena Petrova|Diego Alves|Nadia Rahman; postmortem_doc=PM-88|PM-93|PM-101',
);

/**
 * Values the user sets during a conversation, and updates.
 *
 * @example
 * ```ts
 * USER_SETTINGS.get('deadline'); // ['Friday 14:00', 'Thursday 17:00', …]
 * ```
 */
export const USER_SETTINGS = poolOf(
  'deadline=Friday 14:00|Thursday 17:00|Monday 09:30|Wednesday 12:00;' +
    'batch_limit=30|50|20|40; reviewer=Aisha Karim|Lars Holm|Sofia Berg|Omar Haddad;' +
    'target_branch=release/2.4|release/2.5|hotfix/2.4.1|main; budget_usd=1200|800|2000|1500;' +
    'freeze_window=18:00-20:00|22:00-23:00|06:00-07:30; staging_host=stg-eu-3|stg-us-1|stg-ap-2;' +
    'demo_date=2026-03-12|2026-03-19|2026-04-02',
);
