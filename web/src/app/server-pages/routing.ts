/* As libraries.ts: the router and the query cache, a step of their own. */
export { createPath, Link, Outlet, Route, Router, Routes, useLocation } from 'react-router';
export { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
