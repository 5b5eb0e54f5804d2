import { describe, it } from 'node:test';
import { logGamma, regularizedBeta, regularizedGammaP, regularizedGammaQ } from '../../../core/stats/special';
import { assertClose, assertRelative } from './close';

// Reference values: Python's mpmath 1.3.0 at 30 significant digits (mp.mp.dps = 30), the call beside
// each; where scipy 1.17.1 agrees to every printed digit the scipy call is named too.

describe('logGamma', () => {
  it('matches exact values and mpmath', () => {
    assertClose(logGamma(1), 0, 1e-15, 'log Γ(1) = log 0! = 0');
    assertClose(logGamma(5), Math.log(24), 1e-14, 'log Γ(5) = log 4! = log 24');
    assertClose(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-15, 'log Γ(1/2) = log √π');
    assertRelative(logGamma(3.7), 1.42807232666538812920049835255, 1e-14, 'mp.loggamma(3.7)');
    assertRelative(logGamma(10.5), 13.940625219403763633161237888, 1e-14, 'mp.loggamma(10.5)');
    assertRelative(logGamma(171.3), 708.114947038996882728961855467, 1e-14, 'mp.loggamma(171.3)');
    assertRelative(logGamma(1e5), 1051287.70897365689490085801825, 1e-14, 'mp.loggamma(1e5)');
  });
});

describe('regularized incomplete gamma', () => {
  it('matches mpmath in the series and the continued-fraction regions, and P + Q = 1', () => {
    // P(3, 2) = 1 − e^{−2}(1 + 2 + 2²/2) = 1 − 5e^{−2} (the Poisson identity), = mp.gammainc(3, 0, 2, regularized=True).
    assertClose(regularizedGammaP(3, 2), 1 - 5 * Math.exp(-2), 1e-15, 'P(3, 2)');
    assertClose(regularizedGammaP(3, 2), 0.323323583816936540530002525138, 1e-15, 'P(3, 2) mpmath');
    // Q(1/2, x) = erfc(√x): scipy.special.gammaincc(0.5, 0.1) = 0.6547208460185768.
    assertClose(regularizedGammaQ(0.5, 0.1), 0.6547208460185768, 1e-15, 'Q(0.5, 0.1)');
    assertClose(regularizedGammaP(0.5, 0.1) + regularizedGammaQ(0.5, 0.1), 1, 1e-15, 'P + Q');
    // A far tail keeps its digits: mp.gammainc(0.5, 50, mp.inf, regularized=True).
    assertRelative(regularizedGammaQ(0.5, 50), 1.52397060483210521319466865032e-23, 1e-13, 'Q(0.5, 50)');
  });
});

describe('regularized incomplete beta', () => {
  it('matches a hand-worked polynomial case', () => {
    // I_x(2, 3) = Σ_{j=2}^{4} C(4, j) x^j (1−x)^{4−j} (the binomial identity, A&S 26.5.24);
    // at x = 0.4: 6·0.16·0.36 + 4·0.064·0.6 + 0.0256 = 0.3456 + 0.1536 + 0.0256 = 0.5248.
    assertClose(regularizedBeta(0.4, 2, 3), 0.5248, 1e-13, 'I_0.4(2, 3)');
  });

  it('matches mpmath on both sides of the mean and in a tail', () => {
    // mp.betainc(a, b, 0, x, regularized=True)
    assertRelative(regularizedBeta(0.01, 0.5, 5), 0.24284189089843750246049716368, 1e-13, 'I_0.01(0.5, 5)');
    assertRelative(regularizedBeta(0.3, 50, 60), 0.000343411518766288654570576349077, 1e-12, 'I_0.3(50, 60)');
    assertRelative(regularizedBeta(0.9, 4.5, 0.5), 0.343436396137913571408228669146, 1e-13, 'I_0.9(4.5, 0.5)');
  });

  it('is 0 and 1 at the ends', () => {
    assertClose(regularizedBeta(0, 2, 3), 0, 0);
    assertClose(regularizedBeta(1, 2, 3), 1, 0);
  });
});
