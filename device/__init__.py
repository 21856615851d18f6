"""The appliance: frame sources, LEDs, speech, button, game store, service loop and command line.

Hardware libraries are imported only inside their adapters here (DESIGN.md)."""
