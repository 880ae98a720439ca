'use client';

/* Small, accessible building blocks shared by every console page. */

export { Button, Field, FormError, Input, Select, Spinner, Textarea, type ButtonVariant } from './controls';
export { ConfirmButton, Dialog } from './dialog';
export { Badge, Card, PageHeader, StatusBadge } from './display';
export { EmptyState, ErrorState, Loading, ProgressBar } from './feedback';
export { cx, formatBytes, relativeTime } from './format';
export { Pagination } from './pagination';
export { Table, TableLink, type Column, type TableLook } from './table';
export { RelativeTime } from './time';
