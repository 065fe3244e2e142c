/**
 * Credentials as they sit in real environments, by name and by the shape of their value: the
 * probes of the environment allowlist (docs/runtimes.md). Most do not look like secrets by name
 * (`GH_PAT`, `MYSQL_PWD`, `SENTRY_DSN`, `*_AUTH`), which is why a blocklist leaked them.
 */
export const CREDENTIAL_ENV: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: 'sk-probe-openai-0123456789abcdef',
  ANTHROPIC_API_KEY: 'sk-ant-probe-0123456789abcdef',
  DESKCLAW_API_KEY: 'probe-deskclaw-key-0123456789',
  STRIPE_KEY: 'sk_live_probe0123456789abcdef',
  GH_PAT: 'github_pat_probe0123456789abcdef',
  GITHUB_TOKEN: 'ghp_probe0123456789abcdef0123',
  GH_TOKEN: 'gho_probe0123456789abcdef0123',
  NPM_TOKEN: 'npm_probe0123456789abcdef0123',
  NPM_AUTH: 'dXNlcjpwcm9iZS1ucG0tYXV0aA==',
  BASIC_AUTH: 'user:probe-basic-auth',
  TWILIO_AUTH: 'probe-twilio-auth-0123456789',
  MYSQL_PWD: 'probe-mysql-pwd',
  PGPASSWORD: 'probe-pg-password',
  SMTP_PASS: 'probe-smtp-pass',
  DATABASE_URL: 'postgres://app:probe-db-password@db.internal:5432/app',
  REDIS_URL: 'redis://:probe-redis-password@cache.internal:6379/0',
  MONGODB_URI: 'mongodb+srv://app:probe-mongo-password@cluster0.example.net/db',
  SENTRY_DSN: 'https://probe0123456789abcdef@o1.ingest.sentry.io/1',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/probe0123456789',
  DISCORD_WEBHOOK: 'https://discord.com/api/webhooks/1/probe0123456789',
  DOCKER_AUTH_CONFIG: '{"auths":{"registry.example.com":{"auth":"dXNlcjpwcm9iZQ=="}}}',
  AWS_ACCESS_KEY_ID: 'AKIAPROBE0123456789',
  AWS_SECRET_ACCESS_KEY: 'probe/aws/secret/0123456789abcdef',
  AWS_SESSION_TOKEN: 'probe-aws-session-token',
  AZURE_CLIENT_SECRET: 'probe-azure-client-secret',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/user/.config/gcloud/probe.json',
  HF_TOKEN: 'hf_probe0123456789abcdef',
  VAULT_TOKEN: 'hvs.probe0123456789abcdef',
  CI_JOB_JWT: 'eyJhbGciOiJIUzI1NiJ9.probe.signature',
  KUBECONFIG: '/home/user/.kube/probe-config',
  SSH_AUTH_SOCK: '/tmp/ssh-probe/agent.1234',
  GPG_AGENT_INFO: '/run/user/1000/gnupg/S.gpg-agent:0:1',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
  HTTP_PROXY: 'http://proxyuser:probe-proxy-password@proxy.internal:3128',
  HTTPS_PROXY: 'http://proxyuser:probe-proxy-password@proxy.internal:3128',
  ALL_PROXY: 'socks5://proxyuser:probe-proxy-password@proxy.internal:1080',
  PRIVATE_KEY_PEM: '-----BEGIN PRIVATE KEY-----probe',
  SESSION_COOKIE: 'probe-session-cookie',
  LICENSE_KEY: 'probe-license-key-0123',
  ENCRYPTION_KEY: 'probe-encryption-key-0123'
}

/** The names only. */
export const CREDENTIAL_ENV_NAMES = Object.keys(CREDENTIAL_ENV)

/** The blocklist the allowlist replaced (scrub-env.ts before issue 27), to count what it let through. */
export const OLD_SECRET_NAME_PATTERN = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|SESSION)/i
