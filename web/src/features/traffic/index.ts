export { CamerasPage } from './CamerasPage';
