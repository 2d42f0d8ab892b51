// What a healthy daemon on LevelDB reports to `switchyard doctor` (src/cli/commands/doctor.ts judges
// it), for tests that change a field or two and read the findings.
export function healthyFacts() {
  return {
    env: 'development',
    now: '2026-01-01T00:00:00.000Z',
    data_dir: '/var/lib/switchyard',
    data_dir_mode: 0o700,
    data_dir_uid: 1000,
    daemon_uid: 1000,
    data_dir_allow_shared: false,
    data_dir_free_bytes: 50 * 1024 ** 3,
    data_dir_total_bytes: 100 * 1024 ** 3,
    email_transport: 'provider',
    public_url: 'https://switchyard.example.com',
    public_url_set: true,
    jwt_enabled: true,
    held_mail: 0,
    failed_mail: 0,
    invitations_expiring: 0,
    expiring_window_seconds: 86_400,
    email_from: 'Switchyard <no-reply@switchyard.example.com>',
    storage_engine: 'leveldb',
    database: null,
  };
}
