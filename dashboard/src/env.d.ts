// Stylesheets are imported for their side effect: Vite bundles them into assets/index.css.
declare module '*.css';
