export { StorePage } from './StorePage';
export { AdminProductsPage } from './AdminProductsPage';
