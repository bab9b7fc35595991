/** The seeded demo accounts (development only: the seed refuses a database with real users). */
export const DEMO_USER = { email: 'demo@beacon.local', password: 'beacon-demo-2024' };
export const DEMO_ADMIN = { email: 'admin@beacon.local', password: 'beacon-admin-2024' };
