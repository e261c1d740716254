// The entry point of the Expo path (README.md): registers App as the root component. With the React Native CLI
// template, keep the template's index.js (AppRegistry.registerComponent) instead.
import { registerRootComponent } from 'expo';
import App from './App';

registerRootComponent(App);
