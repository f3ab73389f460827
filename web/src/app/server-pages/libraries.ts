/*
 * The libraries the server-rendered pages' components are made of, loaded by boot.ts as steps of
 * their own before the components: evaluating each is then a shorter task on a phone than all at
 * once.
 */
export {
  Alert,
  Anchor,
  AppShell,
  AspectRatio,
  Badge,
  Burger,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Image,
  MantineProvider,
  Paper,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
