export { SafetyMapPage } from './SafetyMapPage';
