// Moved to common (alerts, incidents and community all use it); kept so existing imports keep working.
export { detectLocation } from '@/common/geolocation';
